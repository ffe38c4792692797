"""Text-based formats: HTML, e-mail (RFC 822), CSV and plain text, each with
the encoding of its bytes.

The encoding comes from a byte-order mark, else strict UTF-8 when the bytes
decode as such (most files today), else charset-normalizer's best guess
(cp1252, Latin-1, Shift-JIS, GB18030...). Bytes that no encoding reads as
text with few control characters are not text.
"""

from __future__ import annotations

import codecs
import csv
import re

from charset_normalizer import from_bytes

from documents.convert.types import Detected, Family

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose BOM it starts with
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Guesses within this chaos of the best are ties; the first encoding of
# _PREFERRED among them wins (Windows and ISO Western first, then CJK, then
# the other Windows code pages).
_CHAOS_TIE = 0.1
_PREFERRED = (
    "cp1252",
    "iso8859_15",
    "latin_1",
    "cp932",
    "shift_jis",
    "euc_jp",
    "gb18030",
    "big5",
    "euc_kr",
    "cp1251",
    "koi8_r",
    "cp1250",
    "cp1253",
    "cp1254",
    "cp1255",
    "cp1256",
)
# Share of control characters (other than tab, newlines, form feed, escape)
# above which decoded bytes are binary data rather than text.
_MAX_CONTROL_SHARE = 0.01
_ALLOWED_CONTROLS = frozenset("\t\n\r\f\x1b")

# Header fields that say "this is a message" (RFC 5322, RFC 2045, transport).
_MAIL_FIELDS = frozenset(
    {
        "from",
        "to",
        "cc",
        "subject",
        "date",
        "message-id",
        "received",
        "return-path",
        "mime-version",
        "content-type",
        "reply-to",
        "delivered-to",
        "x-mailer",
        "sender",
        "in-reply-to",
        "references",
    }
)
_STRONG_MAIL_FIELDS = frozenset(
    {"from", "received", "message-id", "mime-version", "return-path"}
)
_HEADER = re.compile(r"^([!-9;-~]{1,76}):")
_HTML_START = re.compile(
    r"^(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<meta[\s>]|<title>)"
)
_PROLOG = re.compile(r"^(?:\s+|<\?xml[^>]{0,200}\?>|<!--.{0,4000}?-->)", re.DOTALL)
_CSV_DELIMITERS = (",", ";", "\t", "|")
# Mean length of the fields of a two-column table (longer reads as prose).
_MAX_PAIR_FIELD = 24


def sniff_text(head: bytes, *, complete: bool) -> Detected | None:
    """Classify `head` (the first bytes of a file; `complete` when it is the
    whole file) as a text-based format, or None when it is not text."""
    encoding = guess_encoding(head, complete=complete)
    if encoding is None:
        return None
    text = head.decode(encoding, errors="replace")
    if not complete:
        text = text[:-1]  # the last character may be cut in half
    if not _is_text(text):
        return None
    if looks_like_mail(text):
        return Detected("message/rfc822", Family.MAIL, "eml", "e-mail", encoding)
    if _looks_like_html(text):
        return Detected("text/html", Family.HTML, "html", "HTML page", encoding)
    if _looks_like_svg(text):
        return Detected("image/svg+xml", Family.UNKNOWN, "svg", "SVG image", encoding)
    if sniff_delimiter(text, complete=complete) is not None:
        return Detected("text/csv", Family.OFFICE, "csv", "CSV table", encoding)
    return Detected("text/plain", Family.TEXT, "txt", "text file", encoding)


def guess_encoding(data: bytes, *, complete: bool = True) -> str | None:
    """A Python codec name that reads `data` as text, or None."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    if b"\x00" in data:
        # NULs without a BOM: UTF-16 text written without one, or binary.
        return _utf16_without_bom(data)
    try:
        # A sequence cut at the end of a partial read is not an error.
        codecs.getincrementaldecoder("utf-8")().decode(data, final=complete)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    return _guess_legacy(data)


def _guess_legacy(data: bytes) -> str | None:
    """charset-normalizer's guess, with ties (guesses nearly as coherent as the
    best) broken in favour of the encodings most files are written in: a
    short French text reads equally well as cp1252 and as Baltic cp1257."""
    matches = list(from_bytes(data))
    if not matches:
        return None
    best = min(match.chaos for match in matches)
    close = [match for match in matches if match.chaos <= best + _CHAOS_TIE]
    for preferred in _PREFERRED:
        for match in close:
            if preferred in match.could_be_from_charset:
                return codecs.lookup(preferred).name
    return codecs.lookup(close[0].encoding).name


def _utf16_without_bom(data: bytes) -> str | None:
    # ASCII-heavy UTF-16 has a NUL in every other byte, on one side.
    even, odd = data[0::2], data[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def _is_text(text: str) -> bool:
    if not text:
        return True
    controls = sum(1 for ch in text if ch < " " and ch not in _ALLOWED_CONTROLS)
    replaced = text.count("\ufffd")
    return controls + replaced <= _MAX_CONTROL_SHARE * len(text)


def looks_like_mail(text: str) -> bool:
    """True when `text` starts with an RFC 822 header block naming at least
    two message fields, one of which only messages have (From, Received...)."""
    lines = text.lstrip("\ufeff").split("\n", 200)
    if lines and lines[0].startswith("From "):  # an mbox separator line
        lines = lines[1:]
    names: set[str] = set()
    for line in lines[:200]:
        line = line.rstrip("\r")
        if not line:
            break
        if line[0] in " \t":  # a folded continuation of the previous field
            if not names:
                return False
            continue
        match = _HEADER.match(line)
        if match is None:
            return False
        names.add(match.group(1).lower())
    known = names & _MAIL_FIELDS
    return len(known) >= 2 and bool(known & _STRONG_MAIL_FIELDS)


def _start(text: str) -> str:
    text = text.lstrip("\ufeff")
    while True:
        match = _PROLOG.match(text)
        if match is None or not match.group(0):
            return text[:2000].lower()
        text = text[match.end() :]


def _looks_like_html(text: str) -> bool:
    start = _start(text)
    return bool(_HTML_START.match(start)) or (
        start.startswith("<!doctype") and "<html" in start
    )


def _looks_like_svg(text: str) -> bool:
    start = _start(text)
    return start.startswith("<svg") or (
        start.startswith("<!doctype svg") and "<svg" in start
    )


def sniff_delimiter(text: str, *, complete: bool = True) -> str | None:
    """The delimiter of a CSV table: the one that splits the first lines (at
    least three) into the same number (two or more) of fields; else None."""
    lines = text.splitlines()
    if not complete:
        lines = lines[:-1]  # maybe cut
    lines = [line for line in lines[:50] if line.strip()]
    if len(lines) < 3:
        return None
    for delimiter in _CSV_DELIMITERS:
        try:
            rows = list(csv.reader(lines, delimiter=delimiter))
        except csv.Error:
            continue
        widths = {len(row) for row in rows}
        if len(widths) != 1 or min(widths) < 2:
            continue
        if min(widths) >= 3 or _table_of_pairs(rows):
            return delimiter
    return None


def _table_of_pairs(rows: list[list[str]]) -> bool:
    """Two "fields" a line are a table when they are short and the second
    does not start with a space: prose with one comma a line is neither."""
    lengths = [len(field) for row in rows for field in row]
    spaced = sum(1 for row in rows if row[1].startswith(" "))
    return sum(lengths) / len(lengths) <= _MAX_PAIR_FIELD and spaced * 2 < len(rows)
