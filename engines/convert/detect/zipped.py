"""ZIP-based formats: Office Open XML and OpenDocument packages, or an archive.

An OOXML package is recognised by the content type of its main part in
`[Content_Types].xml`, an OpenDocument package by its `mimetype` entry; any
other ZIP is an archive. Only those two small entries are read, with a cap on
their inflated size, and [Content_Types].xml is searched as text (never given
to an XML parser, which a bomb could target).
"""

from __future__ import annotations

import re
import zipfile

from engines.convert.types import Detected, Family

# Inflated bytes read from [Content_Types].xml, mimetype and the manifest.
_SMALL_ENTRY = 256 * 1024

_OOXML = "application/vnd.openxmlformats-officedocument"
# Main part content type -> (MIME type of the package, extension, description).
_OOXML_MAIN: dict[str, tuple[str, str, str]] = {
    f"{_OOXML}.wordprocessingml.document.main+xml": (
        f"{_OOXML}.wordprocessingml.document",
        "docx",
        "Word document",
    ),
    f"{_OOXML}.wordprocessingml.template.main+xml": (
        f"{_OOXML}.wordprocessingml.template",
        "dotx",
        "Word template",
    ),
    "application/vnd.ms-word.document.macroEnabled.main+xml": (
        "application/vnd.ms-word.document.macroEnabled.12",
        "docm",
        "Word document with macros",
    ),
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": (
        "application/vnd.ms-word.template.macroEnabled.12",
        "dotm",
        "Word template with macros",
    ),
    f"{_OOXML}.spreadsheetml.sheet.main+xml": (
        f"{_OOXML}.spreadsheetml.sheet",
        "xlsx",
        "Excel workbook",
    ),
    f"{_OOXML}.spreadsheetml.template.main+xml": (
        f"{_OOXML}.spreadsheetml.template",
        "xltx",
        "Excel template",
    ),
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml": (
        "application/vnd.ms-excel.sheet.macroEnabled.12",
        "xlsm",
        "Excel workbook with macros",
    ),
    f"{_OOXML}.presentationml.presentation.main+xml": (
        f"{_OOXML}.presentationml.presentation",
        "pptx",
        "PowerPoint presentation",
    ),
    f"{_OOXML}.presentationml.slideshow.main+xml": (
        f"{_OOXML}.presentationml.slideshow",
        "ppsx",
        "PowerPoint slide show",
    ),
    f"{_OOXML}.presentationml.template.main+xml": (
        f"{_OOXML}.presentationml.template",
        "potx",
        "PowerPoint template",
    ),
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml": (
        "application/vnd.ms-powerpoint.presentation.macroEnabled.12",
        "pptm",
        "PowerPoint presentation with macros",
    ),
    "application/vnd.ms-visio.drawing.main+xml": (
        "application/vnd.ms-visio.drawing",
        "vsdx",
        "Visio drawing",
    ),
}
# Parts that name the package's kind when [Content_Types].xml is unhelpful.
_OOXML_PARTS = (
    ("word/document.xml", f"{_OOXML}.wordprocessingml.document.main+xml"),
    ("xl/workbook.xml", f"{_OOXML}.spreadsheetml.sheet.main+xml"),
    ("ppt/presentation.xml", f"{_OOXML}.presentationml.presentation.main+xml"),
)

_ODF = "application/vnd.oasis.opendocument"
_ODF_TYPES: dict[str, tuple[str, str]] = {
    f"{_ODF}.text": ("odt", "OpenDocument text"),
    f"{_ODF}.text-template": ("ott", "OpenDocument text template"),
    f"{_ODF}.text-master": ("odm", "OpenDocument master document"),
    f"{_ODF}.spreadsheet": ("ods", "OpenDocument spreadsheet"),
    f"{_ODF}.spreadsheet-template": ("ots", "OpenDocument spreadsheet template"),
    f"{_ODF}.presentation": ("odp", "OpenDocument presentation"),
    f"{_ODF}.presentation-template": ("otp", "OpenDocument presentation template"),
    f"{_ODF}.graphics": ("odg", "OpenDocument drawing"),
    f"{_ODF}.graphics-template": ("otg", "OpenDocument drawing template"),
}
_CONTENT_TYPE = re.compile(rb'ContentType\s*=\s*"([^"]{1,200})"')


def sniff_zip(path: str) -> Detected | None:
    """The package format of the ZIP file at `path`, a plain archive, or None
    when it cannot be read as a ZIP at all."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                found = _odf(zf)
                if found is not None:
                    return found
            if "[Content_Types].xml" in names:
                found = _ooxml(zf, names)
                if found is not None:
                    return found
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError):
        return None
    return Detected("application/zip", Family.ARCHIVE, "zip", "ZIP archive")


def _read_small(zf: zipfile.ZipFile, name: str) -> bytes:
    info = zf.getinfo(name)
    if info.flag_bits & 0x1:  # encrypted with a ZIP password
        return b""
    with zf.open(info) as fh:
        return fh.read(_SMALL_ENTRY)


def _odf(zf: zipfile.ZipFile) -> Detected | None:
    mime = _read_small(zf, "mimetype").strip().decode("ascii", "replace")
    if mime not in _ODF_TYPES:
        return None
    extension, description = _ODF_TYPES[mime]
    encrypted = False
    if "META-INF/manifest.xml" in zf.namelist():
        # An encrypted package keeps its parts encrypted and says so here.
        encrypted = b"encryption-data" in _read_small(zf, "META-INF/manifest.xml")
    return Detected(mime, Family.OFFICE, extension, description, encrypted=encrypted)


def _ooxml(zf: zipfile.ZipFile, names: set[str]) -> Detected | None:
    declared = {m.decode("ascii", "replace") for m in _content_types(zf)}
    for main, (mime, extension, description) in _OOXML_MAIN.items():
        if main in declared:
            return Detected(mime, Family.OFFICE, extension, description)
    for part, main in _OOXML_PARTS:
        if part in names:
            mime, extension, description = _OOXML_MAIN[main]
            return Detected(mime, Family.OFFICE, extension, description)
    return None


def _content_types(zf: zipfile.ZipFile) -> list[bytes]:
    data = _read_small(zf, "[Content_Types].xml")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = data.decode("utf-16", "replace").encode()
    return _CONTENT_TYPE.findall(data)
