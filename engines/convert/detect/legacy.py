"""Older and rarer formats LibreOffice reads, recognised by their bytes.

Binary: Excel 2.x–4.0 and raw BIFF5 streams (a BOF record at offset 0),
Lotus 1-2-3 (WK1, WK3, WK4, 123), Quattro Pro (WB1/WB2), WordPerfect, Write
and Word for Windows 1–2. Compound files (see `ole.py`): Works word
processor files and StarOffice 5 documents, by their streams. Text: SYLK,
DIF, Excel 2003 and Word 2003 XML, flat OpenDocument. Each is converted by
LibreOffice from a copy named with the extension given here, which its own
type detection expects.
"""

from __future__ import annotations

import re

from engines.convert.types import Detected, Family

_XLS_OLD = "application/vnd.ms-excel"


def _office(mime: str, extension: str, description: str) -> Detected:
    return Detected(mime, Family.OFFICE, extension, description)


# BIFF BOF record ids and versions ([MS-XLS] 2.4.21, OpenOffice's Excel
# file format notes): the id gives the BIFF version.
_BIFF_BOF = {0x0009: "2", 0x0209: "3", 0x0409: "4", 0x0809: "5"}
# BOF substream types: workbook globals, worksheet, chart, macro sheet,
# workspace (BIFF4W).
_BIFF_TYPES = frozenset({0x0005, 0x0006, 0x0010, 0x0020, 0x0040, 0x0100})
_BIFF_DESCRIPTION = {
    "2": "Excel 2.x worksheet",
    "3": "Excel 3.0 worksheet",
    "4": "Excel 4.0 worksheet",
    "5": "Excel 5.0 worksheet",
}

_BINARY: tuple[tuple[bytes, Detected], ...] = (
    (b"\xffWPC", _office("application/vnd.wordperfect", "wpd", "WordPerfect document")),
    (
        b"\x00\x00\x02\x00\x04\x04",
        _office("application/vnd.lotus-1-2-3", "wk1", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x02\x00\x06\x04",
        _office("application/vnd.lotus-1-2-3", "wk1", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x1a\x00\x00\x10\x04\x00",
        _office("application/vnd.lotus-1-2-3", "wk3", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x1a\x00\x02\x10\x04\x00",
        _office("application/vnd.lotus-1-2-3", "wk4", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x1a\x00\x03\x10\x04\x00",
        _office("application/vnd.lotus-1-2-3", "123", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x1a\x00\x05\x10\x04\x00",
        _office("application/vnd.lotus-1-2-3", "123", "Lotus 1-2-3 worksheet"),
    ),
    (
        b"\x00\x00\x02\x00\x20\x51",
        _office("application/x-quattropro", "wb2", "Quattro Pro spreadsheet"),
    ),
    (
        b"\x31\xbe\x00\x00\x00\xab",
        _office("application/x-mswrite", "wri", "Windows Write document"),
    ),
    (
        b"\x32\xbe\x00\x00\x00\xab",
        _office("application/x-mswrite", "wri", "Windows Write document"),
    ),
    (b"\xdb\xa5\x2d\x00", _office("application/msword", "doc", "Word 2.0 document")),
    (b"\x9b\xa5\x21\x00", _office("application/msword", "doc", "Word 1.0 document")),
)

# Root streams of compound files that legacy.py knows (ole.py asks).
OLE_STREAMS: tuple[tuple[str, Detected], ...] = (
    (
        "StarWriterDocument",
        _office("application/vnd.stardivision.writer", "sdw", "StarOffice text"),
    ),
    (
        "StarCalcDocument",
        _office("application/vnd.stardivision.calc", "sdc", "StarOffice spreadsheet"),
    ),
    (
        "StarImpressDocument",
        _office(
            "application/vnd.stardivision.impress", "sdd", "StarOffice presentation"
        ),
    ),
    (
        "StarDrawDocument3",
        _office("application/vnd.stardivision.draw", "sda", "StarOffice drawing"),
    ),
    ("MatOST", _office("application/vnd.ms-works", "wps", "Works document")),
    (
        "NativeContent_MAIN",
        _office("application/x-quattropro", "qpw", "Quattro Pro spreadsheet"),
    ),
)

_XML_KINDS: tuple[tuple[re.Pattern[str], Detected], ...] = (
    (
        re.compile(r"<\?mso-application\s+progid=\"Excel\.Sheet\"", re.I),
        _office("application/vnd.ms-excel", "xml", "Excel 2003 XML workbook"),
    ),
    (
        re.compile(r"<\?mso-application\s+progid=\"Word\.Document\"", re.I),
        _office("application/msword", "xml", "Word 2003 XML document"),
    ),
    (
        re.compile(
            r"<office:document\b[^>]*office:mimetype=\"[^\"]*opendocument\.text\""
        ),
        _office(
            "application/vnd.oasis.opendocument.text-flat-xml",
            "fodt",
            "flat OpenDocument text",
        ),
    ),
    (
        re.compile(
            r"<office:document\b[^>]*office:mimetype=\"[^\"]*opendocument\.spreadsheet\""
        ),
        _office(
            "application/vnd.oasis.opendocument.spreadsheet-flat-xml",
            "fods",
            "flat OpenDocument spreadsheet",
        ),
    ),
    (
        re.compile(
            r"<office:document\b[^>]*office:mimetype=\"[^\"]*opendocument\.presentation\""
        ),
        _office(
            "application/vnd.oasis.opendocument.presentation-flat-xml",
            "fodp",
            "flat OpenDocument presentation",
        ),
    ),
)
_SYLK = _office("application/x-sylk", "slk", "SYLK spreadsheet")
_DIF = _office("application/x-dif", "dif", "DIF spreadsheet")
_DIF_START = re.compile(r"^TABLE\r?\n0,1\r?\n")


def sniff_legacy_binary(head: bytes) -> Detected | None:
    """A binary legacy format starting with `head`, or None."""
    for magic, found in _BINARY:
        if head.startswith(magic):
            return found
    return _biff(head)


def _biff(head: bytes) -> Detected | None:
    if len(head) < 8:
        return None
    record = int.from_bytes(head[0:2], "little")
    size = int.from_bytes(head[2:4], "little")
    version = _BIFF_BOF.get(record)
    if version is None or not 4 <= size <= 20:
        return None
    # BIFF2's BOF is (version, type); later ones (version, type) too, but
    # BIFF5's version word is 0x0500 and the type is what tells a sheet.
    kind = int.from_bytes(head[6:8], "little")
    if kind not in _BIFF_TYPES:
        return None
    return _office(_XLS_OLD, "xls", _BIFF_DESCRIPTION[version])


def sniff_legacy_text(start: str) -> Detected | None:
    """A text-based legacy format whose decoded text starts with `start`."""
    if start.startswith("ID;P") or start.startswith("ID;"):
        return _SYLK
    if _DIF_START.match(start):
        return _DIF
    head = start[:4096]
    for pattern, found in _XML_KINDS:
        if pattern.search(head):
            return found
    return None
