"""The encoding of a text's bytes, and how sure that choice is.

In order: a byte-order mark (certain); strict UTF-8 when the bytes decode as
such (nearly certain: legacy text that happens to be valid UTF-8 is rare);
else charset-normalizer's ranking, which weighs how messy each decoding is
(chaos) and how much it reads like a language (coherence). Its first choice
is kept, with one exception: among Latin-script decodings nearly as clean as
the best, the encoding most files are written in wins (a short French text
reads as well in cp1252 as in Baltic cp1257, and charset-normalizer cannot
tell them apart). Decodings in other scripts are never preferred by that
list: a Greek cp1253 text and its KOI8-R reading are equally "clean", but
only the first reads as Greek, which the ranking already says.

HTML pages first follow what they declare (`html_encoding`): a BOM, then a
`<meta charset>`, as browsers do.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter

from charset_normalizer import from_bytes
from charset_normalizer.models import CharsetMatch

from engines.convert.fidelity import EncodingChoice

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM it starts with
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Latin-script guesses within this chaos of the best are ties; the first
# encoding of _LATIN_PREFERRED among them wins.
_CHAOS_TIE = 0.1
_LATIN_PREFERRED = (
    "cp1252",
    "iso8859_15",
    "latin_1",
    "cp1250",
    "iso8859_2",
)
# A guess is never certain, however clean its decoding.
_MAX_GUESS_CONFIDENCE = 0.99
_META_CHARSET = re.compile(
    rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([A-Za-z0-9_.:-]{1,40})""",
    re.IGNORECASE,
)
# Where a page's <meta charset> is looked for (browsers prescan 1024 bytes;
# a long <title> or comments push it further in real pages).
_META_SCAN = 4096
_TAG = re.compile(rb"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.S | re.I)


def choose_encoding(data: bytes, *, complete: bool = True) -> EncodingChoice | None:
    """The encoding of `data` (the whole text when `complete`, else its first
    bytes), or None when no encoding reads it as text."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return EncodingChoice(name, "bom", 1.0)
    if b"\x00" in data:
        # NULs without a BOM: UTF-16 text written without one, or binary.
        utf16 = _utf16_without_bom(data)
        return EncodingChoice(utf16, "utf-16", 0.9) if utf16 else None
    try:
        # A sequence cut at the end of a partial read is not an error.
        codecs.getincrementaldecoder("utf-8")().decode(data, final=complete)
        return EncodingChoice("utf-8", "utf-8", 1.0 if data.isascii() else 0.99)
    except UnicodeDecodeError:
        pass
    return _detected(data)


def guess_encoding(data: bytes, *, complete: bool = True) -> str | None:
    """A Python codec name that reads `data` as text, or None."""
    choice = choose_encoding(data, complete=complete)
    return choice.name if choice else None


def html_encoding(data: bytes, guessed: str | None = None) -> EncodingChoice:
    """The encoding of an HTML page: its BOM, else its `<meta charset>` (when
    Python knows it and, for UTF-8, the bytes are UTF-8), else a guess made on
    the page's text without its markup (tags dilute a language's letters)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return EncodingChoice(name, "bom", 1.0)
    declared = _declared(data)
    if declared is not None:
        return declared
    if guessed in ("utf-8", "utf-16-le", "utf-16-be"):
        return choose_encoding(data) or EncodingChoice(guessed, "utf-8", 0.99)
    text = _TAG.sub(b" ", data)
    choice = choose_encoding(text) if text.strip() else None
    if choice is None:
        choice = choose_encoding(data)
    return choice or EncodingChoice(guessed or "utf-8", "detected", 0.0)


def _declared(data: bytes) -> EncodingChoice | None:
    match = _META_CHARSET.search(data[:_META_SCAN])
    if match is None:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    if name == "utf-8":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None  # declared UTF-8 but written in something else
    return EncodingChoice(name, "declared", 1.0)


def _detected(data: bytes) -> EncodingChoice | None:
    matches = list(from_bytes(data))
    if not matches:
        return None
    chosen = matches[0]  # least chaos, then most like a language
    name = chosen.encoding
    if _script(str(chosen)) == "LATIN":
        close = [
            match
            for match in matches
            if match.chaos <= chosen.chaos + _CHAOS_TIE
            and _script(str(match)) == "LATIN"
        ]
        chosen, name = _latin_preferred(close) or (chosen, name)
    language = chosen.language if chosen.language != "Unknown" else None
    confidence = min(_MAX_GUESS_CONFIDENCE, max(0.0, 1.0 - chosen.chaos))
    return EncodingChoice(
        codecs.lookup(name).name, "detected", round(confidence, 3), language
    )


def _latin_preferred(close: list[CharsetMatch]) -> tuple[CharsetMatch, str] | None:
    for preferred in _LATIN_PREFERRED:
        for match in close:
            if preferred in match.could_be_from_charset:
                return match, preferred
    return None


def _script(text: str) -> str:
    """The script most non-ASCII letters of `text` are written in ("LATIN",
    "GREEK", "CYRILLIC", "ARABIC", "CJK"...), or "" when it has none."""
    counts: Counter[str] = Counter()
    for char in text[:20_000]:
        if char.isalpha() and not char.isascii():
            counts[unicodedata.name(char, "? ").split(" ", 1)[0]] += 1
    return counts.most_common(1)[0][0] if counts else ""


def _utf16_without_bom(data: bytes) -> str | None:
    # ASCII-heavy UTF-16 has a NUL in every other byte, on one side.
    even, odd = data[0::2], data[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None
