"""Checks of an Office package (OOXML, OpenDocument) before LibreOffice
opens it: what would otherwise cost a whole time limit, memory, or worse.

- Decompression bombs: every part is inflated as a stream and counted (the
  sizes the ZIP declares are not trusted); a part may inflate to
  `max(ratio_floor, max_ratio x its compressed size)` and all parts together
  to `max_package_bytes`.
- DTDs: OOXML never has one (ECMA-376 forbids them) and OpenDocument
  only an inert `<!DOCTYPE ... "libraries.dtd">` line in its Basic macro
  parts; entity declarations are how entity-expansion bombs ("billion
  laughs") and external entities (a document quoting a local file, as
  nasty.odt of the corpus does, or fetching a URL) are written. So an
  OOXML part with a DOCTYPE, and any part declaring entities or an internal
  subset or naming a URL as its DTD, is refused.
- Spreadsheets: rows of all sheets are counted while inflating; over
  `max_sheet_rows`, the workbook is refused at once instead of after
  minutes of layout and thousands of pages.
"""

from __future__ import annotations

import re
import zipfile

from engines.convert.types import (
    Detected,
    EncryptedDocument,
    LimitExceeded,
    Limits,
    UnsupportedDocument,
)

MAX_PARTS = 10_000
_CHUNK = 1024 * 1024
_PROLOG = 64 * 1024  # where a DOCTYPE would be
_DOCTYPE = re.compile(rb"<!DOCTYPE([^>\[]*)(\[?)")
_ENTITY = b"<!ENTITY"
_URL_DTD = re.compile(rb"[a-zA-Z][a-zA-Z0-9+.-]*:/")
_XML_SUFFIXES = (".xml", ".rels", ".vml")
# A row element of SpreadsheetML (<row>, <x:row>) or OpenDocument.
_ROW = re.compile(rb"<(?:[A-Za-z]\w*:)?(?:row|table-row)[\s>/]")
_SHEET_PART = re.compile(r"^(?:xl/worksheets/[^/]+\.xml|content\.xml)$")
_SPREADSHEETS = frozenset({"xlsx", "xlsm", "xltx", "ods", "ots"})


def check_package(path: str, detected: Detected, limits: Limits) -> None:
    """Raise `UnsupportedDocument` (or `LimitExceeded`) when the package at
    `path` is a bomb, declares a DTD, or has more rows than allowed."""
    spreadsheet = detected.extension in _SPREADSHEETS
    ooxml = not detected.mime_type.startswith("application/vnd.oasis")
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_PARTS:
                raise LimitExceeded(
                    f"the {detected.description} has {len(infos):,} parts; "
                    f"the limit is {MAX_PARTS:,}"
                )
            total = rows = 0
            for info in infos:
                size, found = _inspect(zf, info, detected, limits, spreadsheet, ooxml)
                total, rows = total + size, rows + found
                if total > limits.max_package_bytes:
                    raise LimitExceeded(
                        f"the {detected.description} inflates to more than "
                        f"{limits.max_package_bytes // (1024 * 1024):,} MiB; "
                        "decompression bombs are not converted"
                    )
                if rows > limits.max_sheet_rows:
                    raise LimitExceeded(
                        f"the {detected.description} has more than "
                        f"{limits.max_sheet_rows:,} rows; the limit is "
                        f"{limits.max_sheet_rows:,} (split it, or export the "
                        "part you need)"
                    )
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        raise UnsupportedDocument(
            f"the {detected.description} is damaged (its ZIP structure cannot be read)"
        ) from exc
    except NotImplementedError as exc:
        raise UnsupportedDocument(
            f"the {detected.description} uses a compression method that is not "
            "supported"
        ) from exc


def _inspect(
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    detected: Detected,
    limits: Limits,
    spreadsheet: bool,
    ooxml: bool,
) -> tuple[int, int]:
    """(inflated bytes, rows) of one part, checked as it streams."""
    if info.is_dir():
        return 0, 0
    if info.flag_bits & 0x1:
        raise EncryptedDocument(
            f"the {detected.description} has encrypted parts; remove its password "
            "and upload it again"
        )
    limit = max(limits.ratio_floor, limits.max_ratio * info.compress_size)
    limit = min(limit, limits.max_package_bytes)
    xml = info.filename.lower().endswith(_XML_SUFFIXES)
    count_rows = spreadsheet and bool(_SHEET_PART.match(info.filename))
    size = rows = 0
    tail = b""
    with zf.open(info) as part:
        while chunk := part.read(_CHUNK):
            if xml and size < _PROLOG:
                _check_prolog(tail + chunk, info.filename, detected, ooxml)
            if count_rows:
                # Rows wholly inside `tail` were counted with the last chunk.
                rows += sum(
                    1 for m in _ROW.finditer(tail + chunk) if m.end() > len(tail)
                )
                tail = chunk[-32:]
                if rows > limits.max_sheet_rows:
                    return size + len(chunk), rows
            elif xml:
                tail = chunk[-32:]
            size += len(chunk)
            if size > limit:
                raise LimitExceeded(
                    f"a part of the {detected.description} ({_short(info.filename)}) "
                    f"inflates from {info.compress_size:,} bytes to more than "
                    f"{limit:,}; decompression bombs are not converted"
                )
    return size, rows


def _check_prolog(data: bytes, name: str, detected: Detected, ooxml: bool) -> None:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = data.decode("utf-16", "replace").encode("utf-8", "replace")
    doctype = _DOCTYPE.search(data)
    refused = _ENTITY in data or (
        doctype is not None
        and (ooxml or bool(doctype.group(2)) or bool(_URL_DTD.search(doctype.group(1))))
    )
    if refused:
        raise UnsupportedDocument(
            f"the {detected.description} declares a DTD or entities in "
            f"{_short(name)}, which Office documents do not need; it is refused "
            "as a possible entity-expansion or external-entity attack"
        )


def _short(name: str) -> str:
    """A part name for a message: printable, short (it is the file's own
    text, not a path of ours)."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in name)
    return clean if len(clean) <= 60 else f"...{clean[-57:]}"
