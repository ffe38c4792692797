"""Bytes read as text every way a reader may read them.

A PDF text string is PDFDocEncoding, or UTF-16 (big-endian with its mark; the
little-endian mark is read by qpdf, poppler and pdf.js too), or UTF-8 with its
mark (PDF 2.0); a tool that ignores the rules reads Latin-1 or CP1252. Streams
and attached files may be in any of those, and their text may be escaped:
percent-encoded (addresses), XML character references (XMP, rich text),
encoded words (e-mail headers). Each reading is returned; a removed run found
in any of them is a leak.
"""

from __future__ import annotations

import html
import urllib.parse
from email.header import decode_header

import regex

# PDFDocEncoding where it differs from Latin-1 (PDF 32000-2, Annex D.3).
_PDFDOC = {
    0x18: "˘", 0x19: "ˇ", 0x1A: "ˆ", 0x1B: "˙", 0x1C: "˝", 0x1D: "˛", 0x1E: "˚",
    0x1F: "˜", 0x80: "•", 0x81: "†", 0x82: "‡", 0x83: "…", 0x84: "—", 0x85: "–",
    0x86: "ƒ", 0x87: "⁄", 0x88: "‹", 0x89: "›", 0x8A: "−", 0x8B: "‰", 0x8C: "„",
    0x8D: "“", 0x8E: "”", 0x8F: "‘", 0x90: "’", 0x91: "‚", 0x92: "™", 0x93: "ﬁ",
    0x94: "ﬂ", 0x95: "Ł", 0x96: "Œ", 0x97: "Š", 0x98: "Ÿ", 0x99: "Ž", 0x9A: "ı",
    0x9B: "ł", 0x9C: "œ", 0x9D: "š", 0x9E: "ž", 0xA0: "€",
}  # fmt: skip
_PDFDOC_TABLE = str.maketrans({chr(code): text for code, text in _PDFDOC.items()})
# A `#xx` escape of a PDF name (compiled once: names are read by the thousand).
_NAME_ESCAPE = regex.compile(rb"#([0-9A-Fa-f]{2})")
_TAG = regex.compile(r"<[^<>]{0,2000}>")
_ENCODED_WORD = regex.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")


def pdfdoc(raw: bytes) -> str:
    return raw.decode("latin-1").translate(_PDFDOC_TABLE)


def byte_readings(raw: bytes) -> list[str]:
    """`raw` decoded by every encoding a reader may assume (see the module)."""
    readings = [pdfdoc(raw), raw.decode("cp1252", "replace")]
    for mark, codec in (
        (b"\xfe\xff", "utf-16-be"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xef\xbb\xbf", "utf-8"),
    ):
        if raw.startswith(mark):
            readings.append(raw[len(mark) :].decode(codec, "replace"))
    if not raw.isascii():
        readings.append(raw.decode("utf-8", "replace"))
    if b"\x00" in raw:
        # UTF-16 without its mark, at either byte alignment: what a byte grep
        # for the word's UTF-16 form finds.
        for start in (0, 1):
            for codec in ("utf-16-be", "utf-16-le"):
                body = raw[start:]
                readings.append(body[: len(body) // 2 * 2].decode(codec, "replace"))
    return readings


def unescaped(text: str) -> list[str]:
    """`text` and what its escapes say: percent-encoding, XML/HTML character
    references and entities, markup removed (a word split over tags), encoded
    words of e-mail headers."""
    found = [text]
    if "%" in text:
        found.append(urllib.parse.unquote(text, errors="replace"))
        found.append(urllib.parse.unquote_plus(text, errors="replace"))
    if "&" in text:
        found.append(html.unescape(text))
    if "<" in text:
        for reading in list(found):
            bare = _TAG.sub("", reading)
            found.append(html.unescape(bare))
            found.append(html.unescape(_TAG.sub(" ", reading)))
    if "=?" in text:
        found.append(_ENCODED_WORD.sub(_encoded_word, text))
    return found


def text_readings(raw: bytes) -> list[str]:
    """Every reading of `raw` with every escape it holds undone."""
    return [form for reading in byte_readings(raw) for form in unescaped(reading)]


def name_readings(name: str) -> list[str]:
    """A PDF name (as pikepdf gives it, `#xx` escapes undone or not) read as
    text: its bytes as UTF-8 and as Latin-1, and its escapes undone."""
    body = name[1:] if name.startswith("/") else name
    raw = _NAME_ESCAPE.sub(
        lambda m: bytes([int(m[1], 16)]), body.encode("utf-8", "surrogateescape")
    )
    return [body, *text_readings(raw)]


def _encoded_word(match: regex.Match[str]) -> str:
    try:
        parts = decode_header(match[0])
    except (ValueError, LookupError):
        return match[0]
    out = []
    for value, charset in parts:
        if isinstance(value, bytes):
            try:
                out.append(value.decode(charset or "latin-1", "replace"))
            except LookupError:
                out.append(value.decode("latin-1"))
        else:
            out.append(value)
    return "".join(out)


_SYNTAX_MARK = regex.compile(rb"\\.|[()%]", regex.DOTALL)
_LINE_END = regex.compile(rb"[\r\n]")


def comments(data: bytes) -> list[bytes]:
    """The comments of PDF syntax (a content stream, a character map): what
    follows `%` to the end of its line, outside strings. Parsers drop them;
    a reader of the bytes sees them."""
    found = []
    position = 0
    depth = 0
    while (mark := _SYNTAX_MARK.search(data, position)) is not None:
        token = mark[0]
        position = mark.end()
        if token == b"(":
            depth += 1
        elif token == b")":
            depth = max(0, depth - 1)
        elif token == b"%" and not depth:
            end = _LINE_END.search(data, position)
            stop = end.start() if end else len(data)
            found.append(data[position:stop])
            position = stop
    return found


_XML_TEXT = regex.compile(
    r"<!\[CDATA\[(.*?)\]\]>|<!--(.*?)-->|>([^<]+)<"
    r"|([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')",
    regex.DOTALL,
)
# Attributes that are the format's: namespaces, languages, packet marks.
_XML_SYNTAX = regex.compile(r"xmlns(:.*)?|xml:lang|rdf:about|id|begin|x:xmptk")


def looks_like_xml(text: str) -> bool:
    head = text.lstrip("\ufeff \t\r\n")[:64]
    return head.startswith(("<?xpacket", "<?xml", "<x:xmpmeta", "<rdf:RDF"))


def xml_texts(text: str) -> list[str]:
    """What an XML document says, not its markup: text nodes, attribute
    values, CDATA sections and comments, each with its references undone."""
    found = []
    for match in _XML_TEXT.finditer(text):
        if match[4] is not None and _XML_SYNTAX.fullmatch(match[4]):
            continue
        groups = (match[1], match[2], match[3], match[5], match[6])
        part = next((group for group in groups if group is not None), "")
        found.append(html.unescape(part))
    return [" ".join(found)] if found else []
