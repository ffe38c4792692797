"""Hostile PDFs, 5: content drawn indirectly (patterns, soft masks, Type 3,
named properties, shared forms, invisible text)."""

from __future__ import annotations

from pathlib import Path

from pikepdf import Array, Dictionary, Name, String

from engines.pdf.types import Box
from tests.pdf.redaction.cases import (
    PLAIN,
    SECRET_BASELINE,
    SECRET_LINE,
    Case,
    case,
    pdf_rect,
    secret_box,
    standard,
)
from tests.pdf.redaction.pdfkit import (
    HEIGHT,
    LEFT,
    SIZE,
    Doc,
    width,
)

# --- 5. content drawn indirectly -------------------------------------------------


def _under_secret(fill: str) -> str:
    """Content filling the secret's box (PDF space) after `fill` set the paint."""
    x0, y0, x1, y1 = pdf_rect(secret_box())
    return f"q {fill} {x0:.2f} {y0:.2f} {x1 - x0:.2f} {y1 - y0:.2f} re f Q\n"


def tiling_pattern(path: Path) -> Case:
    doc = Doc.new()
    x0, y0, _, _ = pdf_rect(secret_box())
    cell = doc.form("BT /F1 6 Tf 1 4 Td (Acme) Tj ET", bbox=(0, 0, 40, 14))
    cell.PatternType, cell.PaintType, cell.TilingType = 1, 1, 1
    cell.XStep, cell.YStep = 40, 14
    cell.Matrix = Array([1, 0, 0, 1, x0, y0])
    del cell.Type
    del cell.Subtype
    page = standard(doc, before=_under_secret("/Pattern cs /P1 scn"))
    page.Resources.Pattern = Dictionary(P1=cell)
    return case("tiling_pattern", path, doc)


def soft_mask(path: Path) -> Case:
    doc = Doc.new()
    x0, y0, _, _ = pdf_rect(secret_box())
    group = doc.form(
        f"0 g 0 0 400 300 re f 1 g BT /F1 12 Tf {x0} {y0 + 3} Td (Acme) Tj ET"
    )
    group.Group = Dictionary(S=Name.Transparency, CS=Name.DeviceGray)
    state = Dictionary(
        Type=Name.ExtGState,
        SMask=Dictionary(Type=Name.Mask, S=Name.Luminosity, G=group),
    )
    page = standard(doc, before=_under_secret("/GS1 gs 0 0 1 rg"))
    page.Resources.ExtGState = Dictionary(GS1=state)
    return case("soft_mask", path, doc)


def _type3(
    doc: Doc, bbox: list[float], offset: tuple[float, float] = (0, 0)
) -> Dictionary:
    """A Type 3 font with glyphs A, c, m, e (boxes), named so extractors read
    "Acme"; each glyph's ink is moved by `offset` (glyph units) from its box."""
    dx, dy = offset
    procs = Dictionary()
    for name in ("A", "c", "m", "e"):
        procs[Name("/" + name)] = doc.stream(
            f"600 0 0 0 500 700 d1 {dx + 50} {dy} 400 600 re f"
        )
    return doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type3,
            FontBBox=Array(bbox),
            FontMatrix=Array([0.001, 0, 0, 0.001, 0, 0]),
            CharProcs=procs,
            Encoding=Dictionary(
                Type=Name.Encoding,
                Differences=Array([65, Name.A, 99, Name.c, 101, Name.e, 109, Name.m]),
            ),
            FirstChar=65,
            LastChar=109,
            Widths=Array([600] * 45),
            Resources=Dictionary(),
        )
    )


def _type3case(name: str, path: Path, font: Dictionary, doc: Doc, zone: Box) -> Case:
    head = "Invoice for "
    x = LEFT + width(head)
    content = (
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm ({head}) Tj ET\n"
        f"BT /T3 {SIZE:g} Tf 1 0 0 1 {x:.2f} {SECRET_BASELINE} Tm (Acme) Tj ET\n"
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {x + 4 * 0.6 * SIZE + 3:.2f} {SECRET_BASELINE} Tm"
        " (sent today) Tj ET\n"
    )
    page = doc.page(PLAIN, extra=content)
    page.Resources.Font.T3 = font
    return case(name, path, doc, zones=(zone,))


def type3_tall_box(path: Path) -> Case:
    doc = Doc.new()
    font = _type3(doc, [0, -20000, 1000, 20000])
    x = LEFT + width("Invoice for ")
    zone = Box(x - 1, HEIGHT - SECRET_BASELINE - 9.5, 4 * 0.6 * SIZE + 2, 11)
    return _type3case("type3_tall_box", path, font, doc, zone)


def type3_ink_elsewhere(path: Path) -> Case:
    doc = Doc.new()
    # The glyphs' ink is drawn 150 pt to the right of their boxes (12500 units
    # at 12 pt), where the line is blank: the user sees the word there.
    font = _type3(doc, [0, 0, 1000, 1000], offset=(12500, 0))
    x = LEFT + width("Invoice for ") + 150
    zone = Box(x - 1, HEIGHT - SECRET_BASELINE - 9.5, 4 * 0.6 * SIZE + 2, 11)
    return _type3case("type3_ink_elsewhere", path, font, doc, zone)


def named_properties(path: Path) -> Case:
    doc = Doc.new()
    head, tail = "Invoice for ", " sent today"
    content = (
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm ({head}) Tj "
        f"/Span /MC0 BDC (Acme) Tj EMC ({tail}) Tj ET\n"
    )
    page = doc.page(PLAIN, extra=content)
    page.Resources.Properties = Dictionary(MC0=Dictionary(ActualText=String("Acme")))
    return case("named_properties", path, doc)


def shared_form(path: Path) -> Case:
    doc = Doc.new()
    xobject = doc.form(
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm ({SECRET_LINE}) Tj ET"
    )
    for lines in (PLAIN, [(250.0, "another page")]):
        page = doc.page(lines, extra="q /X1 Do Q\n")
        page.Resources.XObject = Dictionary(X1=xobject)
    return case("shared_form", path, doc, scope="page")


def invisible_ocr(path: Path) -> Case:
    doc = Doc.new()
    scan = doc.stream(
        bytes([200]) * 64,
        Type=Name.XObject,
        Subtype=Name.Image,
        Width=8,
        Height=8,
        ColorSpace=Name.DeviceGray,
        BitsPerComponent=8,
    )
    invisible = (
        f"BT 3 Tr /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm "
        f"({SECRET_LINE}) Tj ET\n"
    )
    page = doc.page(PLAIN, before="q 320 0 0 40 30 205 cm /Im1 Do Q\n", extra=invisible)
    page.Resources.XObject = Dictionary(Im1=scan)
    return case("invisible_ocr", path, doc)
