"""Hostile PDFs, 1 to 4: glued words, page-level data, form internals, annotations
the engine does not list."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from tests.pdf.redaction.cases import (
    PLAIN,
    Case,
    case,
    pdf_rect,
    secret_box,
    standard,
    words,
)
from tests.pdf.redaction.pdfkit import (
    Doc,
    grown,
    xmp,
)

# --- 1. glued words --------------------------------------------------------------


def glued(path: Path) -> Case:
    line = "Billed to Client:Acme for Acme's files"
    doc = Doc.new()
    page = standard(doc, line)
    doc.info(Title="Acme's report", Author="Client:Acme", Subject="Acme Corp files")
    doc.pdf.Root.Metadata = doc.stream(
        xmp("Acme's report"), Type=Name.Metadata, Subtype=Name.XML
    )
    outline = doc.pdf.make_indirect(Dictionary(Type=Name.Outlines, Count=1))
    item = doc.pdf.make_indirect(
        Dictionary(
            Title=String("Acme's chapter"), Parent=outline, Dest=Array([page, Name.Fit])
        )
    )
    outline.First = outline.Last = item
    doc.pdf.Root.Outlines = outline
    _text_field(doc, page, "client", "Acme", [40, 40, 200, 60])
    zones = (grown(secret_box(line, 0)), grown(secret_box(line, 1)))
    return case(
        "glued",
        path,
        doc,
        line,
        zones=zones,
        others=words(*(text for _, text in PLAIN)) + ("Billed", "to", "for"),
    )


def _form(doc: Doc) -> Dictionary:
    if Name.AcroForm not in doc.pdf.Root:
        doc.pdf.Root.AcroForm = doc.pdf.make_indirect(
            Dictionary(
                Fields=Array(),
                DA=String("/F1 10 Tf 0 g"),
                DR=Dictionary(Font=Dictionary(F1=doc.helv)),
            )
        )
    form = doc.pdf.Root.AcroForm
    assert isinstance(form, Dictionary)
    return form


def _text_field(
    doc: Doc, page: Dictionary, name: str, value: str, rect: list[float], **keys: object
) -> Dictionary:
    field_ = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Tx,
            T=String(name),
            V=String(value),
            DA=String("/F1 10 Tf 0 g"),
            Rect=Array(rect),
            F=4,
            AP=Dictionary(N=doc.text_appearance(value, tuple(rect))),
        ),
    )
    for key, value_ in keys.items():
        field_[Name("/" + key)] = value_
    _form(doc).Fields.append(field_)
    return field_


# --- 2. page-level data ------------------------------------------------------------


def page_data(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    page.PieceInfo = Dictionary(
        Editor=Dictionary(
            Private=String("Acme draft notes"), LastModified=String("D:20240101")
        )
    )
    # An 8 × 8 thumbnail whose bytes spell the word, as a picture of it would show.
    pixels = (b"Acme" * 48)[:192]
    page.Thumb = doc.stream(
        pixels, Width=8, Height=8, ColorSpace=Name.DeviceRGB, BitsPerComponent=8
    )
    page.Metadata = doc.stream(xmp("Acme page"), Type=Name.Metadata, Subtype=Name.XML)
    data = doc.stream(b"draft mentions Acme", Type=Name.EmbeddedFile)
    spec = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Filespec,
            F=String("notes.txt"),
            UF=String("notes.txt"),
            Desc=String("Acme notes"),
            AFRelationship=Name.Source,
            EF=Dictionary(F=data),
        )
    )
    page.AF = Array([spec])
    return case("page_data", path, doc)


# --- 3. form internals -----------------------------------------------------------


def multi_page_field(path: Path) -> Case:
    doc = Doc.new()
    first = standard(doc)
    second = doc.page([(250.0, "second page words here")])
    parent = doc.pdf.make_indirect(
        Dictionary(
            FT=Name.Tx,
            T=String("party"),
            V=String("Acme"),
            DA=String("/F1 10 Tf 0 g"),
            Kids=Array(),
        )
    )
    for page in (first, second):
        rect = [40, 40, 200, 60]
        kid = doc.annotate(
            page,
            Dictionary(
                Type=Name.Annot,
                Subtype=Name.Widget,
                Parent=parent,
                Rect=Array(rect),
                F=4,
                AP=Dictionary(N=doc.text_appearance("Acme", tuple(rect))),
            ),
        )
        parent.Kids.append(kid)
    _form(doc).Fields.append(parent)
    return case("multi_page_field", path, doc)


def choice_fields(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    form = _form(doc)
    combo = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Ch,
            Ff=1 << 17,
            T=String("supplier"),
            Opt=Array([String("Acme"), String("Other")]),
            V=String("Other"),
            DA=String("/F1 10 Tf 0 g"),
            Rect=Array([40, 20, 120, 36]),
            F=4,
            AP=Dictionary(N=doc.text_appearance("Other", (40, 20, 120, 36))),
        ),
    )
    listbox = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Ch,
            T=String("vendors"),
            Opt=Array(
                [
                    Array([String("a1"), String("Acme Ltd")]),
                    Array([String("b2"), String("Beta")]),
                ]
            ),
            V=String("b2"),
            DA=String("/F1 10 Tf 0 g"),
            Rect=Array([130, 20, 220, 60]),
            F=4,
            AP=Dictionary(N=doc.text_appearance("Acme Ltd", (130, 20, 220, 60))),
        ),
    )
    rich = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Tx,
            Ff=1 << 25,
            T=String("memo"),
            V=String("Acme"),
            RV=String("<body><p>Acme</p></body>"),
            DA=String("/F1 10 Tf 0 g"),
            Rect=Array([230, 20, 300, 36]),
            F=4,
            AP=Dictionary(N=doc.text_appearance("Acme", (230, 20, 300, 36))),
        ),
    )
    radio = doc.pdf.make_indirect(
        Dictionary(
            FT=Name.Btn, Ff=1 << 15, T=String("choice"), V=Name("/Acme"), Kids=Array()
        )
    )
    for n, state in enumerate(("/Acme", "/Beta")):
        rect = [310 + 30 * n, 20, 330 + 30 * n, 40]
        on = doc.form("0 g 4 4 12 12 re f", bbox=(0, 0, 20, 20))
        off = doc.form("", bbox=(0, 0, 20, 20))
        kid = doc.annotate(
            page,
            Dictionary(
                Type=Name.Annot,
                Subtype=Name.Widget,
                Parent=radio,
                Rect=Array(rect),
                F=4,
                AS=Name(state) if n == 0 else Name.Off,
                AP=Dictionary(N=Dictionary({state: on, "/Off": off})),
            ),
        )
        radio.Kids.append(kid)
    form.Fields.extend([combo, listbox, rich, radio])
    return case("choice_fields", path, doc)


# --- 4. annotations the engine does not list ---------------------------------


def unknown_annotations(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    rect = pdf_rect(secret_box())
    w, h = rect[2] - rect[0], rect[3] - rect[1]

    def red_word() -> pikepdf.Stream:  # burnt over the fill, it would show
        return doc.form(
            f"1 0 0 rg 0 0 {w} {h} re f 0 g BT /F1 9 Tf 1 2 Td (Acme) Tj ET",
            bbox=(0, 0, w, h),
        )

    for subtype in ("/FooBar", "/Stamp"):
        doc.annotate(
            page,
            Dictionary(
                Type=Name.Annot,
                Subtype=Name(subtype),
                Rect=Array(rect),
                F=4,
                AP=Dictionary(N=red_word()),
            ),
        )
    note = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Text,
            Rect=Array([350, 20, 370, 40]),
            Contents=String("unrelated note"),
            F=4,
        ),
    )
    popup = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Popup,
            Rect=Array(rect),
            Parent=note,
            Open=True,
            F=4,
            AP=Dictionary(N=red_word()),
        ),
    )
    note.Popup = popup
    return case("unknown_annotations", path, doc)
