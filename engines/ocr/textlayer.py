"""The invisible text layer: recognised words written into the page's content.

Each word is shown in render mode 3 (invisible) with a glyphless font whose
glyphs are all half an em wide, at a font size equal to the word box's height
and a horizontal scaling that stretches its glyph run over the box's width: the
text extracted back (MuPDF, poppler) has the word's box exactly, so search
results, line listings and redaction areas land on the scanned word. The words
go into the page's own content stream, not a form XObject, where MuPDF's
redaction removes them like any text.

Words are placed in a *frame*: the page as it was drawn for Tesseract, upright
for reading, in points (y down). A page read as displayed has displayed space
as its frame; a page whose scan lies sideways was drawn turned, and its words
run along the frame's x axis, which the frame's matrix turns back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from engines.ocr.tesseract import glyphless_font
from engines.pdf import geometry
from engines.pdf.types import Box

_FONT_NAME = "OcrGlyphless"
# Every glyph advances half an em (/DW 500); ascent 1000 and descent 0 make a
# glyph's box run from the baseline up one font size.
_ADVANCE = 0.5
_REPLACEMENT = 0xFFFD


@dataclass(frozen=True, slots=True)
class Word:
    """A recognised word: its text and its box in the frame (points)."""

    text: str
    box: Box
    confidence: float  # Tesseract's, 0 to 100
    line: tuple[int, int, int]  # (block, paragraph, line) numbers on the page


@dataclass(frozen=True, slots=True)
class Frame:
    """Where words are placed: `matrix` takes frame points to displayed space;
    `height` is the frame's height in points."""

    matrix: pymupdf.Matrix
    height: float

    def display_box(self, box: Box) -> Box:
        """A frame box in displayed space (exact for quarter turns)."""
        rect = pymupdf.Rect(box.x, box.y, box.x + box.w, box.y + box.h)
        return geometry.rect_to_box(rect * self.matrix)


def add_font(doc: pymupdf.Document) -> int:
    """Add the text layer's font to `doc` once; its xref.

    A Type0 font with Identity-H encoding whose codes are the characters' UTF-16
    units: a CIDToGIDMap sends them all to the one blank glyph and the ToUnicode
    map back to themselves, so any character of the Basic Multilingual Plane can
    be written and is extracted as it was recognised.
    """
    to_unicode = _new_stream(doc, _identity_cmap())
    gid_map = _new_stream(doc, b"\x00\x01" * 65536)
    file_entry = ""
    font_file = glyphless_font()
    if font_file is not None:
        file_entry = f"/FontFile2 {_new_stream(doc, font_file)} 0 R"
    descriptor = _new_object(
        doc,
        f"<</Type/FontDescriptor/FontName/{_FONT_NAME}/Flags 4"
        "/FontBBox[0 0 500 1000]/ItalicAngle 0/Ascent 1000/Descent 0"
        f"/CapHeight 1000/StemV 80{file_entry}>>",
    )
    cid_font = _new_object(
        doc,
        f"<</Type/Font/Subtype/CIDFontType2/BaseFont/{_FONT_NAME}"
        "/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>"
        f"/FontDescriptor {descriptor} 0 R/DW 500/CIDToGIDMap {gid_map} 0 R>>",
    )
    return _new_object(
        doc,
        f"<</Type/Font/Subtype/Type0/BaseFont/{_FONT_NAME}/Encoding/Identity-H"
        f"/DescendantFonts[{cid_font} 0 R]/ToUnicode {to_unicode} 0 R>>",
    )


def write_words(
    page: pymupdf.Page, font_xref: int, words: Sequence[Word], frame: Frame
) -> None:
    """Append `words` (frame boxes, in reading order) to the page's content as
    invisible text. Consecutive words of one line are separated by a
    space glyph spanning the gap between them, so extraction keeps them apart
    even when they nearly touch."""
    if not words:
        return
    name = _font_resource(page, font_xref)
    height = frame.height
    # Text is written in the frame with y upwards; the matrix takes it to
    # displayed space, then to PDF user space (the page's rotation and CropBox).
    up = (
        pymupdf.Matrix(1, 0, 0, -1, 0, height)
        * frame.matrix
        * geometry.display_to_pdf_matrix(page)
    )
    ops = [f"q {_numbers(tuple(up))} cm BT 3 Tr"]
    for number, word in enumerate(words):
        box = word.box
        size = box.h
        ops.append(
            f"/{name} {_n(size)} Tf {_n(_scaling(box.w, len(word.text), size))} Tz "
            f"1 0 0 1 {_n(box.x)} {_n(height - box.y - box.h)} Tm "
            f"<{_hex(word.text)}> Tj"
        )
        following = words[number + 1] if number + 1 < len(words) else None
        if following is not None and following.line == word.line:
            gap = max(0.0, following.box.x - (box.x + box.w))
            ops.append(f"{_n(_scaling(gap, 1, size))} Tz <0020> Tj")
    ops.append("ET Q")
    page.wrap_contents()  # whatever state the page's content leaves, start afresh
    doc = page.parent
    stream = _new_stream(doc, "\n".join(ops).encode())
    contents = [*page.get_contents(), stream]
    doc.xref_set_key(
        page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in contents) + "]"
    )


def _scaling(width: float, glyphs: int, size: float) -> float:
    """Horizontal scaling, percent, that makes `glyphs` glyphs span `width`."""
    return 100 * width / (glyphs * _ADVANCE * size)


def _hex(text: str) -> str:
    """The text as 2-byte codes; characters beyond the Basic Multilingual Plane
    (two UTF-16 units, which the identity map cannot pair) become U+FFFD."""
    codes = [ord(char) for char in text]
    return "".join(f"{c if c <= 0xFFFF else _REPLACEMENT:04X}" for c in codes)


def _n(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _numbers(values: Sequence[float]) -> str:
    return " ".join(_n(value) for value in values)


def _identity_cmap() -> bytes:
    """A ToUnicode CMap sending each 2-byte code to the same UTF-16 unit.

    Ranges may only vary in their last byte, hence one per high byte; the
    surrogate block is left out (a lone surrogate is no character).
    """
    ranges = [
        f"<{high:02X}00> <{high:02X}FF> <{high:02X}00>"
        for high in range(256)
        if not 0xD8 <= high <= 0xDF
    ]
    blocks = []
    for start in range(0, len(ranges), 100):
        chunk = ranges[start : start + 100]
        blocks.append(
            f"{len(chunk)} beginbfrange\n" + "\n".join(chunk) + "\nendbfrange"
        )
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo <</Registry (Adobe) /Ordering (UCS) /Supplement 0>> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        + "\n".join(blocks)
        + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode()


def _new_object(doc: pymupdf.Document, source: str) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, source)
    return xref


def _new_stream(doc: pymupdf.Document, data: bytes) -> int:
    xref = _new_object(doc, "<<>>")
    doc.update_stream(xref, data)
    return xref


def _font_resource(page: pymupdf.Page, font_xref: int) -> str:
    """The name the page's resources give the font, adding it when needed.

    Resources inherited from the page tree are first copied onto the page (a
    Font entry alone would hide the inherited images); a resources or font
    dictionary shared with other pages just gains one entry.
    """
    doc = page.parent
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "null":
        value = _inherited_resources(doc, page.xref)
        doc.xref_set_key(page.xref, "Resources", value)
        kind = "dict"
    owner, path = (
        (int(value.split()[0]), "") if kind == "xref" else (page.xref, "Resources/")
    )
    kind, value = doc.xref_get_key(owner, path + "Font")
    if kind == "xref":
        owner, path = int(value.split()[0]), ""
    else:
        if kind != "dict":
            doc.xref_set_key(owner, path + "Font", "<<>>")
        path += "Font/"
    name, suffix = _FONT_NAME, 0
    while True:
        kind, value = doc.xref_get_key(owner, path + name)
        if kind == "null":
            doc.xref_set_key(owner, path + name, f"{font_xref} 0 R")
            return name
        if kind == "xref" and int(value.split()[0]) == font_xref:
            return name
        suffix += 1
        name = f"{_FONT_NAME}{suffix}"


def _inherited_resources(doc: pymupdf.Document, node: int) -> str:
    for _ in range(64):  # a page tree deeper than this is a loop
        kind, value = doc.xref_get_key(node, "Parent")
        if kind != "xref":
            break
        node = int(value.split()[0])
        kind, value = doc.xref_get_key(node, "Resources")
        if kind != "null":
            return value
    return "<<>>"
