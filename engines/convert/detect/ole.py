"""OLE2 compound files: legacy Word/Excel/PowerPoint, Outlook messages, and
password-protected Office Open XML files (which Office wraps in OLE2).

The kind is read from the names of the streams at the root of the file's
directory; whether a legacy document is password-protected from the few bytes
that say so ([MS-DOC] FIB flags, [MS-XLS] FILEPASS record, [MS-PPT]
EncryptedSummary stream).
"""

from __future__ import annotations

import olefile

from engines.convert.detect.legacy import OLE_STREAMS
from engines.convert.types import Detected, Family

_DOC = Detected("application/msword", Family.OFFICE, "doc", "Word 97-2003 document")
_XLS = Detected(
    "application/vnd.ms-excel", Family.OFFICE, "xls", "Excel 97-2003 workbook"
)
_PPT = Detected(
    "application/vnd.ms-powerpoint",
    Family.OFFICE,
    "ppt",
    "PowerPoint 97-2003 presentation",
)
_MSG = Detected("application/vnd.ms-outlook", Family.MAIL, "msg", "Outlook message")
_VSD = Detected("application/vnd.visio", Family.OFFICE, "vsd", "Visio drawing")
_PUB = Detected("application/x-mspublisher", Family.OFFICE, "pub", "Publisher document")
_ENCRYPTED_OOXML = Detected(
    "application/x-encrypted-ooxml",
    Family.OFFICE,
    "",
    "password-protected Office document",
    encrypted=True,
)

# [MS-DOC] 2.5.2 FibBase: wIdent at 0, flags at 0x0A, fEncrypted is bit 8.
_WORD_IDENT = 0xA5EC
_WORD_ENCRYPTED = 0x0100
# [MS-XLS] records: FILEPASS follows BOF in the globals substream when the
# workbook is encrypted; BOUNDSHEET comes later, so reaching it means "no".
_XLS_FILEPASS, _XLS_BOUNDSHEET, _XLS_EOF = 0x002F, 0x0085, 0x000A
_XLS_RECORDS_SCANNED = 200


def sniff_ole(path: str) -> Detected | None:
    """The kind of the compound file at `path`, or None when it is unknown
    or unreadable."""
    try:
        with olefile.OleFileIO(path) as ole:
            return _classify(ole)
    except Exception:  # olefile raises many kinds of errors on damaged files
        return None


def _classify(ole: olefile.OleFileIO) -> Detected | None:
    root = {entry[0] for entry in ole.listdir(streams=True, storages=True)}
    if "EncryptionInfo" in root and "EncryptedPackage" in root:
        return _ENCRYPTED_OOXML
    if any(name.startswith("__substg1.0_") for name in root):
        return _MSG
    if "WordDocument" in root:
        return _encrypted(_DOC) if _word_encrypted(ole) else _DOC
    if "Workbook" in root or "Book" in root:
        stream = "Workbook" if "Workbook" in root else "Book"
        return _encrypted(_XLS) if _excel_encrypted(ole, stream) else _XLS
    if "PowerPoint Document" in root:
        encrypted = "EncryptedSummary" in root
        return _encrypted(_PPT) if encrypted else _PPT
    if "VisioDocument" in root:
        return _VSD
    if "Quill" in root:
        return _PUB
    for stream, found in OLE_STREAMS:
        if stream in root:
            return found
    return None


def _encrypted(found: Detected) -> Detected:
    return Detected(
        found.mime_type,
        found.family,
        found.extension,
        f"password-protected {found.description}",
        encrypted=True,
    )


def _word_encrypted(ole: olefile.OleFileIO) -> bool:
    with ole.openstream("WordDocument") as stream:
        fib = stream.read(12)
    if len(fib) < 12 or int.from_bytes(fib[0:2], "little") != _WORD_IDENT:
        return False
    return bool(int.from_bytes(fib[10:12], "little") & _WORD_ENCRYPTED)


def _excel_encrypted(ole: olefile.OleFileIO, name: str) -> bool:
    with ole.openstream(name) as stream:
        for _ in range(_XLS_RECORDS_SCANNED):
            header = stream.read(4)
            if len(header) < 4:
                return False
            kind = int.from_bytes(header[0:2], "little")
            size = int.from_bytes(header[2:4], "little")
            if kind == _XLS_FILEPASS:
                return True
            if kind in (_XLS_BOUNDSHEET, _XLS_EOF):
                return False
            stream.seek(size, 1)
    return False
