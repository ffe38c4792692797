"""Strings and names of the written file, read the ways readers read them.

pikepdf (qpdf) decodes a text string as PDFDocEncoding or UTF-16BE; some
readers also take UTF-16LE with its mark, UTF-8 with its mark, CP1252, and
undo percent-encoding or XML character references. A string is judged on
every such reading: one that names a removed word by any of them is scrubbed
(on the reading that names it) or cleared.
"""

from __future__ import annotations

import html
import urllib.parse

import regex
from pikepdf import String

from engines.pdf.redact.words import holds, scrub_text

# A `#xx` escape of a PDF name (compiled once: names are read by the thousand).
_NAME_ESCAPE = regex.compile(rb"#([0-9A-Fa-f]{2})")


def readings(raw: bytes, primary: str) -> list[str]:
    """`primary` (qpdf's reading) first, then every other reading of `raw`."""
    found = [primary]
    if raw.startswith(b"\xff\xfe"):
        found.append(raw[2:].decode("utf-16-le", "replace"))
    if raw.startswith(b"\xef\xbb\xbf"):
        found.append(raw[3:].decode("utf-8", "replace"))
    if not raw.isascii():
        found += [raw.decode("cp1252", "replace"), raw.decode("latin-1")]
        found.append(raw.decode("utf-8", "replace"))
    if b"\x00" in raw:
        for start in (0, 1):
            body = raw[start:]
            body = body[: len(body) // 2 * 2]
            found += [
                body.decode("utf-16-be", "replace"),
                body.decode("utf-16-le", "replace"),
            ]
    for text in list(found):
        if "%" in text:
            found.append(urllib.parse.unquote(text, errors="replace"))
        if "&" in text:
            found.append(html.unescape(text))
        if "<" in text:
            found.append(html.unescape(regex.sub(r"<[^<>]*>", "", text)))
    return found


def scrubbed_string(value: String, pattern: regex.Pattern[str]) -> str | None:
    """The string's text without the removed words; None when no reading
    names one; "" when only a reading other than qpdf's does (it cannot be
    rewritten word by word)."""
    raw = bytes(value)
    primary = str(value)
    if holds(primary, pattern):
        return scrub_text(primary, pattern) or ""
    if any(holds(text, pattern) for text in readings(raw, primary)[1:]):
        return ""
    return None


def names_word(text: str, pattern: regex.Pattern[str]) -> bool:
    return holds(text, pattern)


def name_text(name: str) -> str:
    """A PDF name's text: its `#xx` escapes undone, read as UTF-8."""
    body = name[1:] if name.startswith("/") else name
    raw = _NAME_ESCAPE.sub(
        lambda m: bytes([int(m[1], 16)]), body.encode("utf-8", "surrogateescape")
    )
    return raw.decode("utf-8", "replace") + " " + raw.decode("latin-1")
