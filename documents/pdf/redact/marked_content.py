"""Alternate texts (/ActualText, /Alt, /E) of marked content in a page's streams.

MuPDF's redaction drops the glyphs but keeps these, so those naming a removed
word are deleted from the page's content streams and form XObjects.
"""

from __future__ import annotations

import pymupdf
import regex

from documents.pdf.redact.words import scrub_text

# A marked-content property that repeats the text it marks, followed by its string.
_MARKED_TEXT = regex.compile(rb"/(?:ActualText|Alt|E)(?![^\s/<>\[\]()%{}])\s*")


def scrub_marked_content(page: pymupdf.Page, pattern: regex.Pattern[str]) -> None:
    """Delete the alternate texts naming a removed word in the page's streams."""
    doc = page.parent
    streams = list(page.get_contents())
    streams += [xobject[0] for xobject in page.get_xobjects()]
    for xref in dict.fromkeys(streams):
        data = doc.xref_stream(xref)
        if not data:
            continue
        scrubbed = _scrub_stream(data, pattern)
        if scrubbed is not None:
            doc.update_stream(xref, scrubbed)


def _scrub_stream(data: bytes, pattern: regex.Pattern[str]) -> bytes | None:
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


def _string_end(data: bytes, start: int) -> int | None:
    """End (exclusive) of the PDF string starting at `start`, None if none starts."""
    if data[start : start + 1] == b"<" and data[start + 1 : start + 2] != b"<":
        close = data.find(b">", start)
        return None if close < 0 else close + 1
    if data[start : start + 1] != b"(":
        return None
    depth = 0
    index = start
    while index < len(data):
        byte = data[index]
        if byte == 0x5C:  # backslash: the next byte is escaped
            index += 2
            continue
        if byte == 0x28:
            depth += 1
        elif byte == 0x29:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


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
        if escaped[:1].isdigit():
            return bytes([int(escaped, 8) & 0xFF])
        if escaped in (b"\r\n", b"\n", b"\r"):
            return b""
        return _ESCAPES.get(escaped, escaped)

    return regex.sub(rb"\\([0-7]{1,3}|\r\n|.)", replace, body, flags=regex.DOTALL)
