"""Strings inside content streams: alternate texts of marked content, and the
text a stream shows.

MuPDF's redaction drops the glyphs but keeps /ActualText, /Alt and /E of marked
content, so those naming a removed word are deleted from content streams.
"""

from __future__ import annotations

import regex

from engines.pdf.redact.words import scrub_text

# A marked-content property that repeats the text it marks, followed by its string.
_MARKED_TEXT = regex.compile(rb"/(?:ActualText|Alt|E)(?![^\s/<>\[\]()%{}])\s*")


def scrub_stream(data: bytes, pattern: regex.Pattern[str]) -> bytes | None:
    """The content stream without the alternate texts naming a word; None when
    none does."""
    out = bytearray()
    done = 0
    position = 0
    while (match := _MARKED_TEXT.search(data, position)) is not None:
        start = match.end()
        end = _string_end(data, start)
        if end is None:
            position = start
            continue
        if scrub_text(_decode_string(data[start:end]), pattern) is not None:
            # The key goes with its string, so that readers fall back to the
            # glyphs left in the marked sequence.
            out += data[done : match.start()]
            done = end
        position = end
    if not done:
        return None
    return bytes(out + data[done:])


# Where a string operand may start: "(" or "<" (not "<<").
_STRING_START = regex.compile(rb"\(|(?<!<)<(?!<)")


def string_operands(data: bytes) -> list[str]:
    """Every string of a content stream, decoded as a text string, in order."""
    strings = []
    position = 0
    while (match := _STRING_START.search(data, position)) is not None:
        end = _string_end(data, match.start())
        if end is None:
            position = match.end()
            continue
        strings.append(_decode_string(data[match.start() : end]))
        position = end
    return strings


def syntax_names_word(syntax: bytes, pattern: regex.Pattern[str]) -> bool:
    """Whether a string in `syntax` (an object written as PDF) names a word.

    Most objects have no string, or plain ASCII strings without escapes that
    read as they are written: those are matched on the bytes at once (a match
    on a name or a key only sends the object to the exact test, which decodes
    each string).
    """
    unwrapped = syntax.replace(b"<<", b"").replace(b">>", b"")
    if b"(" not in syntax and b"<" not in unwrapped:
        return False
    plain = b"<" not in unwrapped and b"\\" not in syntax and syntax.isascii()
    if plain and not pattern.search(syntax.decode("ascii")):
        return False
    return any(
        scrub_text(text, pattern) is not None for text in string_operands(syntax)
    )


def stream_text(data: bytes) -> str:
    """A content stream's strings, once joined by spaces, once glued (a word
    split over kerned pieces), then its raw bytes: text shown through a simple
    font's standard encoding reads there as it shows; a match in any counts."""
    strings = string_operands(data)
    return "\n".join((" ".join(strings), "".join(strings), data.decode("latin-1")))


def _string_end(data: bytes, start: int) -> int | None:
    """End (exclusive) of the PDF string starting at `start`, None if none starts."""
    if data[start : start + 1] == b"<" and data[start + 1 : start + 2] != b"<":
        close = data.find(b">", start)
        return None if close < 0 else close + 1
    if data[start : start + 1] != b"(":
        return None
    depth = 0
    # Only escapes and parentheses matter; the regex skips the bytes between.
    for match in _PAREN_OR_ESCAPE.finditer(data, start):
        token = match[0]
        if token == b"(":
            depth += 1
        elif token == b")":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


_PAREN_OR_ESCAPE = regex.compile(rb"\\.|[()]", regex.DOTALL)


_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _decode_string(token: bytes) -> str:
    if token.startswith(b"<"):
        digits = regex.sub(rb"\s", b"", token[1:-1])
        try:
            raw = bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
        except ValueError:  # not a hex string after all: nothing to read
            return ""
    else:
        raw = _unescape(token[1:-1])
    if raw.startswith(b"\xfe\xff"):
        return raw[2:].decode("utf-16-be", "replace")
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", "replace")
    return raw.decode("latin-1")


def _unescape(body: bytes) -> bytes:
    def replace(match: regex.Match[bytes]) -> bytes:
        escaped = match[1]
        if escaped[0] in b"01234567":  # an octal code (\8, \9 are not)
            return bytes([int(escaped, 8) & 0xFF])
        if escaped in (b"\r\n", b"\n", b"\r"):
            return b""
        return _ESCAPES.get(escaped, escaped)

    return regex.sub(rb"\\([0-7]{1,3}|\r\n|.)", replace, body, flags=regex.DOTALL)
