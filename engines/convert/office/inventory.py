"""What an Office package asks for and holds that a PDF does not show: the
fonts it names, its macros, links to other files, hidden sheets and slides,
comments, speaker notes, embedded files. For the fidelity report.

Read from the package's parts as bytes with regular expressions (never an
XML parser: `package.py` has already refused DTDs and bombs, and a part is
read only up to `_MAX_PART` bytes). Legacy compound files (doc, xls, ppt)
report their macros; their fonts are not read.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass

import olefile

from engines.convert.fidelity import SKIPPED_KINDS, SkippedPart
from engines.convert.types import Detected

_MAX_PART = 32 * 1024 * 1024
_MAX_NAMES = 5
_FONT_PATTERNS = (
    # WordprocessingML run fonts; DrawingML theme and run fonts; SpreadsheetML
    # <font><name val=...>; OpenDocument font faces.
    re.compile(rb'<a:(?:latin|ea|cs) typeface="([^"]{1,64})"'),
    re.compile(rb'<(?:\w+:)?name val="([^"]{1,64})"'),
    re.compile(rb'svg:font-family="([^"]{1,64})"'),
)
_RUN_FONTS = re.compile(rb"<w:rFonts\b[^>]*>")
_RUN_FONT = re.compile(rb'\bw:(?:ascii|hAnsi|cs|eastAsia)="([^"]{1,64})"')
_FONT_PARTS = re.compile(
    r"^(word/(document|styles|header\d*|footer\d*|numbering)\.xml|xl/styles\.xml"
    r"|ppt/(slides|slideMasters|slideLayouts)/[^/]+\.xml|(word|xl|ppt)/theme/theme1\.xml"
    r"|content\.xml|styles\.xml)$"
)
_EXTERNAL = re.compile(
    rb'<Relationship\b[^>]*?Type="[^"]*/(?!hyperlink")[^"/]*"[^>]*?TargetMode="External"'
    rb'|<Relationship\b[^>]*?TargetMode="External"[^>]*?Type="[^"]*/(?!hyperlink")[^"/]*"'
)
_SHEET = re.compile(rb"<(?:\w+:)?sheet\b[^>]*>")
_ATTRIBUTE = re.compile(rb'(\w+)="([^"]*)"')
_HIDDEN_SLIDE = re.compile(rb'<p:sld\b[^>]*\bshow="(?:0|false)"')
# Word's comments.xml, Excel's comments1.xml or comments/comment1.xml,
# PowerPoint's comments/ folder.
_COMMENT_PART = re.compile(r"(^|/)comments[^/]*\.xml$|/comments/[^/]+\.xml$")
_COMMENT = re.compile(rb"<(?:w:comment|comment|p:cm|p188:cm|office:annotation)\b")
_ODF_HIDDEN_STYLE = re.compile(
    rb'<style:style style:name="([^"]+)" style:family="table"[^>]*>'
    rb'<style:table-properties[^>]*table:display="false"'
)
_ODF_TABLE = re.compile(
    rb'<table:table table:name="([^"]*)" table:style-name="([^"]*)"'
)


@dataclass(frozen=True, slots=True)
class Inventory:
    """Font families the source names (in the order first found) and the
    parts of it a PDF does not show."""

    fonts: tuple[str, ...] = ()
    skipped: tuple[SkippedPart, ...] = ()


def inventory(path: str, detected: Detected) -> Inventory:
    """The inventory of the Office file at `path`; empty for what it cannot
    read (it never fails a conversion)."""
    try:
        if zipfile.is_zipfile(path):
            return _package(path)
        if olefile.isOleFile(path):
            return _compound(path)
    except Exception:  # a damaged part: the report says less, nothing fails
        return Inventory()
    return Inventory()


def _package(path: str) -> Inventory:
    fonts: dict[str, None] = {}
    found: dict[str, list[str]] = {kind: [] for kind in SKIPPED_KINDS}
    counts: dict[str, int] = dict.fromkeys(SKIPPED_KINDS, 0)
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            name = info.filename
            lowered = name.lower()
            if lowered.endswith("vbaproject.bin") or lowered.startswith(
                ("basic/", "scripts/")
            ):
                counts["macros"] += lowered.endswith(("vbaproject.bin", ".xml"))
                continue
            if "/embeddings/" in lowered or lowered.startswith("object "):
                counts["embedded_files"] += 1
                continue
            if lowered.startswith("xl/externallinks/") and lowered.endswith(".xml"):
                counts["external_links"] += 1
                continue
            if not lowered.endswith((".xml", ".rels")) or info.file_size > _MAX_PART:
                continue
            data = zf.read(info)
            if _FONT_PARTS.match(name):
                for font in _fonts(data):
                    fonts.setdefault(font)
            if lowered.endswith(".rels") and not lowered.startswith("xl/"):
                counts["external_links"] += len(_EXTERNAL.findall(data))
            if lowered == "xl/workbook.xml":
                hidden = _hidden_sheets(data)
                counts["hidden_sheets"] += len(hidden)
                found["hidden_sheets"] += hidden
            if lowered.startswith("ppt/slides/slide") and _HIDDEN_SLIDE.search(data):
                counts["hidden_slides"] += 1
            if lowered.startswith("ppt/notesslides/"):
                counts["notes"] += 1
            if _COMMENT_PART.search(lowered):
                counts["comments"] += len(_COMMENT.findall(data))
            if lowered == "content.xml":
                counts["comments"] += data.count(b"<office:annotation")
                hidden = _odf_hidden_tables(data)
                counts["hidden_sheets"] += len(hidden)
                found["hidden_sheets"] += hidden
    skipped = tuple(
        SkippedPart(kind, counts[kind], tuple(found[kind][:_MAX_NAMES]))
        for kind in SKIPPED_KINDS
        if counts[kind]
    )
    return Inventory(tuple(fonts), skipped)


def _fonts(data: bytes) -> Iterable[str]:
    matches = [
        name for tag in _RUN_FONTS.findall(data) for name in _RUN_FONT.findall(tag)
    ]
    for pattern in _FONT_PATTERNS:
        matches += pattern.findall(data)
    for match in matches:
        name = match.decode("utf-8", "replace").replace("&apos;", "").strip("'")
        if name and not name.startswith("+"):  # "+mn-lt": the theme's
            yield name


def _hidden_sheets(workbook: bytes) -> list[str]:
    names = []
    for tag in _SHEET.findall(workbook):
        attributes = dict(_ATTRIBUTE.findall(tag))
        if attributes.get(b"state") in (b"hidden", b"veryHidden"):
            names.append(attributes.get(b"name", b"").decode("utf-8", "replace"))
    return names


def _odf_hidden_tables(content: bytes) -> list[str]:
    hidden = set(_ODF_HIDDEN_STYLE.findall(content))
    return [
        name.decode("utf-8", "replace")
        for name, style in _ODF_TABLE.findall(content)
        if style in hidden
    ]


def _compound(path: str) -> Inventory:
    with olefile.OleFileIO(path) as ole:
        names = {"/".join(entry) for entry in ole.listdir(storages=True)}
    macros = sum(
        1
        for name in names
        if name in ("Macros", "_VBA_PROJECT_CUR", "VBA") or name.endswith("/VBA")
    )
    skipped = (SkippedPart("macros", macros),) if macros else ()
    return Inventory((), skipped)
