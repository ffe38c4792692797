"""Hostile PDFs, round two, 6 and 7: pixels and vectors under the area, and
what counts as the removed word (layout quirks, fonts of forms)."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
from pikepdf import Array, Dictionary, Name, String
from PIL import Image

from engines.pdf import geometry
from engines.pdf.types import Box
from tests.pdf.redaction.cases import (
    PLAIN,
    SECRET_BASELINE,
    Case,
    case,
    pdf_rect,
    secret_box,
    standard,
    words,
)
from tests.pdf.redaction.pdfkit import HEIGHT, LEFT, SIZE, Doc, grown, word_box

# A grey no other pixel of these files has: an image or shading that keeps it
# keeps the secret's picture.
MARK = 77


def _marked_image(doc: Doc) -> object:
    # A picture, not a flat colour: marked and white pixels alternate.
    pixels = bytes([MARK, 255] * 4 + [255, MARK] * 4) * 4
    return doc.stream(
        pixels, Type=Name.XObject, Subtype=Name.Image, Width=8, Height=8,
        ColorSpace=Name.DeviceGray, BitsPerComponent=8,
    )  # fmt: skip


def soft_mask_image(path: Path) -> Case:
    """A soft-mask group that draws an image (the secret's picture) under the
    word: a luminosity mask shows its pixels through the fill it masks."""
    doc = Doc.new()
    x0, y0, x1, y1 = pdf_rect(secret_box())
    group = doc.form(
        f"q {x1 - x0:.2f} 0 0 {y1 - y0:.2f} {x0:.2f} {y0:.2f} cm /Im1 Do Q"
    )
    group.Group = Dictionary(S=Name.Transparency, CS=Name.DeviceGray)
    group.Resources.XObject = Dictionary(Im1=_marked_image(doc))
    mask = Dictionary(Type=Name.Mask, S=Name.Luminosity, G=group)
    state = Dictionary(Type=Name.ExtGState, SMask=mask)
    page = standard(
        doc, before=f"q /GS1 gs 0 0 1 rg {x0} {y0} {x1 - x0} {y1 - y0} re f Q\n"
    )
    page.Resources.ExtGState = Dictionary(GS1=state)
    return case("soft_mask_image", path, doc, notes={"mark": MARK})


def pattern_image(path: Path) -> Case:
    """A tiling pattern whose cell draws an image (the secret's picture),
    filling a rectangle under the word."""
    doc = Doc.new()
    x0, y0, x1, y1 = pdf_rect(secret_box())
    # The cell is the word's box and as much again to its right, where the
    # picture is white: the fill reaches past the area, so it stays.
    width, height = 2 * (x1 - x0), y1 - y0
    cell = doc.form(f"q {width:.2f} 0 0 {height:.2f} 0 0 cm /Im1 Do Q")
    cell.PatternType, cell.PaintType, cell.TilingType = 1, 1, 1
    cell.BBox = Array([0, 0, width, height])
    cell.XStep, cell.YStep = width, height
    cell.Matrix = Array([1, 0, 0, 1, x0, y0])
    half = bytes([MARK, 255] * 4 + [255, MARK] * 4) * 4
    pixels = b"".join(
        half[row * 8 : row * 8 + 8] + bytes([255]) * 8 for row in range(8)
    )
    cell.Resources.XObject = Dictionary(
        Im1=doc.stream(
            pixels, Type=Name.XObject, Subtype=Name.Image, Width=16, Height=8,
            ColorSpace=Name.DeviceGray, BitsPerComponent=8,
        )
    )  # fmt: skip
    del cell.Type
    del cell.Subtype
    fill = f"q /Pattern cs /P1 scn {x0:.2f} {y0:.2f} {width:.2f} {height:.2f} re f Q\n"
    page = standard(doc, before=fill)
    page.Resources.Pattern = Dictionary(P1=cell)
    return case("pattern_image", path, doc, notes={"mark": MARK})


def mesh_shading(path: Path) -> Case:
    """A free-form triangle mesh (type 4) partly under the word, in the
    marked grey: a picture can be drawn that way."""
    doc = Doc.new()
    x0, y0, x1, y1 = pdf_rect(secret_box())
    points = [(x0, y0), (x1 + 40, y0), (x0, y1 + 20)]
    data = b"".join(
        bytes([0])
        + int(x * 100).to_bytes(3, "big")
        + int(y * 100).to_bytes(3, "big")
        + bytes([MARK])
        for x, y in points
    )
    shading = doc.stream(
        data, ShadingType=4, ColorSpace=Name.DeviceGray, BitsPerCoordinate=24,
        BitsPerComponent=8, BitsPerFlag=8,
        Decode=Array([0, 167772.15, 0, 167772.15, 0, 1]),
    )  # fmt: skip
    page = standard(doc, before="q /Sh1 sh Q\n")
    page.Resources.Shading = Dictionary(Sh1=shading)
    return case("mesh_shading", path, doc, notes={"mark": MARK})


def jpeg_metadata(path: Path) -> Case:
    """A photo outside the area whose JPEG comment and EXIF name the word."""
    doc = Doc.new()
    picture = Image.new("RGB", (16, 16), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010E] = "Photo of Acme office"  # ImageDescription
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif, comment=b"Acme")
    image = doc.stream(
        out.getvalue(), Type=Name.XObject, Subtype=Name.Image, Width=16, Height=16,
        ColorSpace=Name.DeviceRGB, BitsPerComponent=8, Filter=Name.DCTDecode,
    )  # fmt: skip
    page = standard(doc, before="q 30 0 0 30 340 20 cm /Im1 Do Q\n")
    page.Resources.XObject = Dictionary(Im1=image)
    return case("jpeg_metadata", path, doc)


# --- 7. what counts as the removed word -------------------------------------------


def lying_map_in_form(path: Path) -> Case:
    """The word drawn inside a form whose own font's /ToUnicode says "Qxzw"."""
    doc = Doc.new()
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        "4 beginbfchar <41> <0051> <63> <0078> <6D> <007A> <65> <0077> endbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    liar = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
            Encoding=Name.WinAnsiEncoding, ToUnicode=doc.stream(cmap),
        )
    )  # fmt: skip
    head = "Invoice for "
    x = LEFT + pymupdf.get_text_length(head, fontsize=SIZE)
    form = doc.form(
        f"BT /F2 {SIZE:g} Tf 1 0 0 1 {x:.2f} {SECRET_BASELINE} Tm (Acme) Tj ET"
    )
    form.Resources.Font.F2 = liar
    content = (
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm ({head}) Tj ET\n"
        "q /X1 Do Q\n"
    )
    page = doc.page(PLAIN, extra=content)
    page.Resources.XObject = Dictionary(X1=form)
    doc.info(Title="Acme report")
    zone = grown(secret_box())
    return case(
        "lying_map_in_form",
        path,
        doc,
        zones=(zone,),
        others=words(*(t for _, t in PLAIN)),
    )


def hyphenated(path: Path) -> Case:
    """ "Ac-" ends a line, "me" starts the next; the outline names "Acme"."""
    doc = Doc.new()
    lines = [
        (250.0, "Alpha bravo charlie Ac-"),
        (236.0, "me delta echo foxtrot"),
        *PLAIN[1:],
    ]
    page = doc.page(lines)
    _outline(doc, page, "Acme chapter")
    first = _box(lines[0][1], "Ac-", lines[0][0])
    second = _box(lines[1][1], "me", lines[1][0])
    return case(
        "hyphenated", path, doc, lines[0][1], zones=(first, second), secret="Acme",
        others=words("Alpha bravo charlie delta echo foxtrot", *(t for _, t in PLAIN[1:])),
        notes={"search": False},
    )  # fmt: skip


def tracked_heading(path: Path) -> Case:
    """A heading set with letter spacing ("A c m e" to extraction); the
    outline names the word."""
    doc = Doc.new()
    tracked = (
        f"BT /F1 {SIZE:g} Tf 8 Tc 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm (Acme) Tj ET\n"
    )
    page = doc.page(PLAIN, extra=tracked)
    _outline(doc, page, "Acme")
    width = pymupdf.get_text_length("Acme", fontsize=SIZE) + 4 * 8
    top = HEIGHT - SECRET_BASELINE - 0.718 * SIZE
    zone = grown(geometry_box(LEFT, top, width, 0.925 * SIZE))
    return case(
        "tracked_heading", path, doc, zones=(zone,),
        others=words(*(t for _, t in PLAIN)), notes={"search": False},
    )  # fmt: skip


def vertical_text(path: Path) -> Case:
    """The word in vertical writing (Identity-V) with an embedded font."""
    doc = Doc.new()
    doc.page(PLAIN)
    draft = path.with_name("draft-" + path.name)
    doc.save(str(draft))
    with pymupdf.open(draft) as document:
        page = document[0]
        page.insert_font(fontname="F9", fontbuffer=pymupdf.Font("cour").buffer)
        page.insert_text((350, 40), "Acme", fontname="F9", fontsize=SIZE)
        font = next(f[0] for f in page.get_fonts() if f[4] == "F9")
        document.xref_set_key(font, "Encoding", "/Identity-V")
        document.save(path)
    # The zone follows the ink closely: MuPDF's extracted boxes of vertical
    # glyphs lie below it, and must not decide what is recorded as removed.
    zone = grown(_ink_box(path), 0.3)
    return Case("vertical_text", path, (zone,), words(*(t for _, t in PLAIN)))


def _ink_box(path: Path) -> Box:
    """Where the page draws ink right of x 340 (the vertical word), displayed."""
    with pymupdf.open(path) as document:
        pixels = document[0].get_pixmap(dpi=72, colorspace=pymupdf.csGRAY)
        xs, ys = [], []
        for y in range(pixels.height):
            for x in range(340, pixels.width):
                if pixels.pixel(x, y)[0] < 128:
                    xs.append(x)
                    ys.append(y)
        rect = pymupdf.Rect(min(xs), min(ys), max(xs) + 1, max(ys) + 1)
        return geometry.rect_to_box(rect)


def geometry_box(x: float, y: float, w: float, h: float) -> Box:
    return Box(x, y, w, h)


def _box(line: str, word: str, baseline: float) -> Box:
    return grown(word_box(line, word, baseline))


def _outline(doc: Doc, page: Dictionary, title: str) -> None:
    outline = doc.pdf.make_indirect(Dictionary(Type=Name.Outlines, Count=1))
    item = doc.pdf.make_indirect(
        Dictionary(Title=String(title), Parent=outline, Dest=Array([page, Name.Fit]))
    )
    outline.First = outline.Last = item
    doc.pdf.Root.Outlines = outline
