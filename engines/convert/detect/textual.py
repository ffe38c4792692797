"""Text-based formats: HTML, e-mail (RFC 822), CSV and plain text, each with
the encoding of its bytes.

The encoding comes from `charset.py` (a byte-order mark, else strict UTF-8,
else charset-normalizer's ranking). Bytes that no encoding reads as text
with few control characters are not text.
"""

from __future__ import annotations

import csv
import re
import statistics

from engines.convert.detect.charset import guess_encoding, html_encoding
from engines.convert.detect.legacy import sniff_legacy_text
from engines.convert.types import Detected, Family

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
    legacy = sniff_legacy_text(_start_raw(text))
    if legacy is not None:
        return legacy
    if looks_like_mail(text):
        return Detected("message/rfc822", Family.MAIL, "eml", "e-mail", encoding)
    if _looks_like_html(text):
        encoding = html_encoding(head, encoding).name
        return Detected("text/html", Family.HTML, "html", "HTML page", encoding)
    if _looks_like_svg(text):
        return Detected("image/svg+xml", Family.UNKNOWN, "svg", "SVG image", encoding)
    if sniff_delimiter(text, complete=complete) is not None:
        return Detected("text/csv", Family.OFFICE, "csv", "CSV table", encoding)
    return Detected("text/plain", Family.TEXT, "txt", "text file", encoding)


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


def _start_raw(text: str) -> str:
    return text.lstrip("\ufeff")[:8192]


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
    does not start with a space: prose with one comma a line is neither. Short
    by the median, so that one long cell (a note, a description) among short
    ones leaves a table a table."""
    lengths = [len(field) for row in rows for field in row]
    spaced = sum(1 for row in rows if row[1].startswith(" "))
    return statistics.median(lengths) <= _MAX_PAIR_FIELD and spaced * 2 < len(rows)
