"""Hostile PDFs, round two, 4 and 5: text drawn through nested forms and CID
fonts, and attached files of every kind."""

from __future__ import annotations

import email.message
import io
import zipfile
from pathlib import Path

import pikepdf
import pymupdf
from pikepdf import Array, Dictionary, Name, Stream, String

from tests.pdf.redaction.cases import Case, case, standard
from tests.pdf.redaction.pdfkit import Doc

# --- 4. text drawn through nested forms ------------------------------------------


def _nested(doc: Doc, text: str = "(Acme) Tj") -> Stream:
    inner = doc.form(f"BT /F1 9 Tf 2 4 Td {text} ET", bbox=(0, 0, 90, 20))
    outer = doc.form("q /FRM Do Q", bbox=(0, 0, 90, 20))
    outer.Resources.XObject = Dictionary(FRM=inner)
    return outer


def stamp_nested_form(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Stamp,
            Rect=Array([300, 20, 390, 40]),
            F=4,
            AP=Dictionary(N=_nested(doc)),
        ),
    )
    return case("stamp_nested_form", path, doc)


def signature_layers(path: Path) -> Case:
    """A signature widget whose appearance draws layers n0 and n2 (the word)."""
    doc = Doc.new()
    page = standard(doc)
    n2 = doc.form("BT /F1 9 Tf 2 4 Td (Signed for Acme) Tj ET", bbox=(0, 0, 90, 20))
    n0 = doc.form("", bbox=(0, 0, 90, 20))
    frm = doc.form("q /n0 Do Q q /n2 Do Q", bbox=(0, 0, 90, 20))
    frm.Resources.XObject = Dictionary(n0=n0, n2=n2)
    top = doc.form("q /FRM Do Q", bbox=(0, 0, 90, 20))
    top.Resources.XObject = Dictionary(FRM=frm)
    widget = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Sig,
            T=String("signature"),
            Rect=Array([300, 20, 390, 40]),
            F=4,
            AP=Dictionary(N=top),
        ),
    )
    doc.pdf.Root.AcroForm = Dictionary(Fields=Array([widget]), SigFlags=3)
    return case("signature_layers", path, doc)


def cid_appearance(path: Path) -> Case:
    """A stamp's appearance showing the word in an embedded CID font (the
    stream holds glyph numbers only)."""
    scratch = pymupdf.open()
    page = scratch.new_page(width=90, height=20)
    page.insert_font(fontname="F9", fontbuffer=pymupdf.Font("cour").buffer)
    page.insert_text((2, 14), "Acme", fontname="F9", fontsize=9)
    with pikepdf.open(io.BytesIO(scratch.tobytes())) as source:
        form = source.pages[0].as_form_xobject()
        doc = Doc.new()
        appearance = doc.pdf.copy_foreign(form)
    scratch.close()
    page_obj = standard(doc)
    doc.annotate(
        page_obj,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Stamp,
            Rect=Array([300, 20, 390, 40]),
            F=4,
            AP=Dictionary(N=appearance),
        ),
    )
    return case("cid_appearance", path, doc)


def redact_overlay(path: Path) -> Case:
    """A pending Redact annotation elsewhere whose overlay (/RO) shows the word."""
    doc = Doc.new()
    page = standard(doc)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Redact,
            Rect=Array([300, 20, 390, 40]),
            QuadPoints=Array([300, 40, 390, 40, 300, 20, 390, 20]),
            RO=_nested(doc),
            OverlayText=String("Acme"),
        ),
    )
    return case("redact_overlay", path, doc)


# --- 5. attached files ----------------------------------------------------------


def _attach(doc: Doc, name: str, data: bytes, typed: bool = True) -> Dictionary:
    stream = doc.stream(data, **({"Type": Name.EmbeddedFile} if typed else {}))
    spec = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Filespec, F=String(name), UF=String(name), EF=Dictionary(F=stream)
        )
    )
    names = doc.pdf.Root.get(Name.Names) or Dictionary()
    tree = names.get("/EmbeddedFiles") or Dictionary(Names=Array())
    tree.Names.extend([String(name), spec])
    names.EmbeddedFiles = tree
    doc.pdf.Root.Names = names
    return spec


def attachments_of_every_kind(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    _attach(doc, "list.csv", "name;client\n1;Acme\n".encode("utf-16"))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("notes/memo.txt", "The client is Acme.\n")
        zipped.writestr("readme.txt", "nothing here\n")
    _attach(doc, "bundle.zip", archive.getvalue())
    _attach(doc, "inner.pdf", _small_pdf("Quote for Acme attached"))
    _attach(doc, "mail.eml", _mail())
    _attach(doc, "untyped.txt", b"untyped mentions Acme", typed=False)
    return case("attachments_of_every_kind", path, doc)


def _small_pdf(line: str) -> bytes:
    document = pymupdf.open()
    document.new_page(width=300, height=200).insert_text((30, 60), line, fontsize=11)
    data = document.tobytes()
    document.close()
    return data


def _mail() -> bytes:
    message = email.message.EmailMessage()
    message["From"] = "=?utf-8?B?QWNtZSBTYWxlcw==?= <sales@example.org>"
    message["To"] = "someone@example.org"
    message["Subject"] = "order"
    message.set_content("Hello,\nplease find the order.\n")
    message.add_attachment(
        b"Order placed by Acme", maintype="text", subtype="plain", filename="o.txt"
    )
    return message.as_bytes()


def associated_files(path: Path) -> Case:
    """/AF on an image, on an annotation, and a remote go-to whose file
    specification embeds a file."""
    doc = Doc.new()
    page = standard(doc, before="q 10 0 0 10 350 250 cm /Im1 Do Q\n")
    spec = _attach(doc, "src.txt", b"source of Acme")
    image = doc.stream(
        bytes([255]) * 4, Type=Name.XObject, Subtype=Name.Image, Width=2, Height=2,
        ColorSpace=Name.DeviceGray, BitsPerComponent=8, AF=Array([spec]),
    )  # fmt: skip
    page.Resources.XObject = Dictionary(Im1=image)
    doc.pdf.Root.Names = Dictionary()  # only reachable through /AF and actions
    note = doc.annotate(
        page,
        Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=Array([360, 20, 380, 40])),
    )
    note.AF = Array([spec])
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Link,
            Rect=Array([300, 50, 340, 70]),
            A=Dictionary(S=Name.GoToR, F=spec, D=Array([0, Name.Fit])),
        ),
    )
    return case("associated_files", path, doc)
