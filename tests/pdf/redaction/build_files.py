"""Hostile PDFs, 6 and 7: side effects (layers, replies, lying /ToUnicode,
strings everywhere) and the structure of the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
from pikepdf import Array, Dictionary, Name, String

from engines.pdf import geometry
from tests.pdf.redaction.cases import (
    PLAIN,
    SECRET,
    SECRET_BASELINE,
    SECRET_LINE,
    Case,
    case,
    pdf_rect,
    secret_box,
    standard,
    words,
)
from tests.pdf.redaction.pdfkit import (
    HEIGHT,
    LEFT,
    SIZE,
    Doc,
    escape,
    grown,
)

# --- 6. side effects ---------------------------------------------------------------


def optional_content(path: Path) -> Case:
    doc = Doc.new()
    layer = doc.pdf.make_indirect(Dictionary(Type=Name.OCG, Name=String("Draft")))
    hidden = (
        f"/OC /OC1 BDC BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} 60 Tm (hiddenword layer) Tj"
        " ET EMC\n"
    )
    page = standard(doc, extra=hidden)
    page.Resources.Properties = Dictionary(OC1=layer)
    doc.pdf.Root.OCProperties = Dictionary(
        OCGs=Array([layer]), D=Dictionary(OFF=Array([layer]), Order=Array([layer]))
    )
    return case("optional_content", path, doc, notes={"hidden": "hiddenword"})


def note_with_reply(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    rect = Array(pdf_rect(secret_box()))

    def note(rect_: Array, contents: str, **keys: Any) -> Dictionary:
        return doc.annotate(
            page,
            Dictionary(
                Type=Name.Annot,
                Subtype=Name.Text,
                Rect=rect_,
                F=4,
                Contents=String(contents),
                NM=String(contents.split()[0]),
                **keys,
            ),
        )

    doomed = note(rect, "Acme is the client")
    popup = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Popup,
            Rect=Array([300, 200, 390, 280]),
            Parent=doomed,
        ),
    )
    doomed.Popup = popup
    note(rect, "agreed with them", IRT=doomed)
    kept = note(Array([350, 20, 370, 40]), "general remark")
    note(Array([350, 20, 370, 40]), "reply kept", IRT=kept)
    return case("note_with_reply", path, doc)


def scrambled_to_unicode(path: Path) -> Case:
    doc = Doc.new()
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Scrambled def 1 begincodespacerange <00> <FF> endcodespacerange\n"
        "4 beginbfchar <41> <0051> <63> <0078> <6D> <007A> <65> <0077> endbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    liar = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name.Helvetica,
            Encoding=Name.WinAnsiEncoding,
            ToUnicode=doc.stream(cmap),
        )
    )
    head = "Invoice for "
    content = (
        f"BT /F1 {SIZE:g} Tf 1 0 0 1 {LEFT} {SECRET_BASELINE} Tm ({head}) Tj "
        f"/F2 {SIZE:g} Tf (Acme) Tj /F1 {SIZE:g} Tf ( sent today) Tj ET\n"
    )
    page = doc.page(PLAIN, extra=content)
    page.Resources.Font.F2 = liar
    return case("scrambled_to_unicode", path, doc)


def strings_everywhere(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    root = doc.pdf.Root
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Link,
            Rect=Array([300, 20, 390, 40]),
            A=Dictionary(S=Name.URI, URI=String("https://example.org/Acme")),
        ),
    )
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Text,
            Rect=Array([360, 260, 380, 280]),
            F=4,
            Contents=String("call Acme"),
            T=String("Acme team"),
        ),
    )
    data = doc.stream(b"Acme data", Type=Name.EmbeddedFile)
    spec = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Filespec,
            F=String("Acme.txt"),
            UF=String("Acme.txt"),
            Desc=String("about Acme"),
            EF=Dictionary(F=data),
        )
    )
    script = Dictionary(S=Name.JavaScript, JS=String("app.alert('Acme')"))
    root.Names = Dictionary(
        Dests=Dictionary(Names=Array([String("Acme-intro"), Array([page, Name.Fit])])),
        EmbeddedFiles=Dictionary(Names=Array([String("Acme.txt"), spec])),
        JavaScript=Dictionary(Names=Array([String("Acme"), script])),
    )
    # A PDF 1.1 named destination: a name, not a string, reached by a link.
    root.Dests = Dictionary({"/Acme-old": Array([page, Name.Fit])})
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Link,
            Rect=Array([300, 50, 390, 70]),
            Dest=Name("/Acme-old"),
        ),
    )
    root.OpenAction = Dictionary(
        S=Name.JavaScript, JS=String("console.println('Acme')")
    )
    root.PageLabels = Dictionary(
        Nums=Array([0, Dictionary(S=Name.D, P=String("Acme-"))])
    )
    outline = doc.pdf.make_indirect(Dictionary(Type=Name.Outlines, Count=1))
    item = doc.pdf.make_indirect(
        Dictionary(Title=String("Intro"), Parent=outline, Dest=String("Acme-intro"))
    )
    outline.First = outline.Last = item
    root.Outlines = outline
    thread = doc.pdf.make_indirect(
        Dictionary(I=Dictionary(Title=String("Acme thread")))
    )
    bead = doc.pdf.make_indirect(
        Dictionary(T=thread, P=page, R=Array([40, 200, 300, 240]))
    )
    bead.N = bead.V = bead
    thread.F = bead
    root.Threads = Array([thread])
    page.B = Array([bead])
    element = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.StructElem,
            S=Name.Figure,
            Alt=String("Acme figure"),
            T=String("Acme"),
            ActualText=String("Acme"),
        )
    )
    root.StructTreeRoot = doc.pdf.make_indirect(
        Dictionary(Type=Name.StructTreeRoot, K=element)
    )
    element.P = root.StructTreeRoot
    return case("strings_everywhere", path, doc)


# --- 7. structure of the file ------------------------------------------------------


def incremental_update(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    doc.info(Title="Acme statement")
    doc.save(str(path))
    with pymupdf.open(path) as again:  # the first revision stays in the bytes
        again[0].insert_text((40, 40), "added later", fontsize=10)
        again.saveIncr()
    return Case(
        "incremental_update",
        path,
        (grown(secret_box()),),
        words(SECRET_LINE, *(text for _, text in PLAIN)),
    )


def orphans_in_object_streams(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    doc.info(Title="Acme statement")
    draft = path.with_name("draft-" + path.name)
    doc.save(str(draft))
    with pymupdf.open(draft) as again:  # objects nothing refers to, then packed
        memo = again.get_new_xref()
        again.update_object(memo, "<< /Note (Acme memo) >>")
        orphan = again.get_new_xref()
        again.update_object(orphan, "<< >>")
        again.update_stream(orphan, b"Acme orphan stream")
        again.save(str(path), garbage=0, use_objstms=1, deflate=True)
    return Case(
        "orphans_in_object_streams",
        path,
        (grown(secret_box()),),
        words(SECRET_LINE, *(text for _, text in PLAIN)),
    )


def rotated_and_skewed(path: Path) -> Case:
    doc = Doc.new()
    skewed = (
        f"BT /F1 {SIZE:g} Tf 1 0 0.21 1 {LEFT} {SECRET_BASELINE} Tm "
        f"({escape(SECRET_LINE)}) Tj ET\n"
        f"BT /F1 {SIZE:g} Tf 0.866 0.5 -0.5 0.866 250 20 Tm (turned words stay) Tj ET\n"
    )
    page = doc.page(PLAIN, extra=skewed)
    page.Rotate = 90
    doc.save(str(path))
    with pymupdf.open(path) as shown:
        found = shown[0].search_for(SECRET)
        assert len(found) == 1
        box = geometry.rect_to_box(geometry.page_rect_to_display(shown[0], found[0]))
    return Case(
        "rotated_and_skewed",
        path,
        (grown(box, 0.5),),
        words(SECRET_LINE, *(text for _, text in PLAIN), "turned words stay"),
    )


def cid_font(path: Path) -> Case:
    """The secret line in an embedded CID font (Identity-H): the content holds
    glyph numbers only, the text comes from /ToUnicode, which here also maps
    one glyph to two letters (a ligature: "ff" of "Staffing")."""
    doc = Doc.new()
    doc.page(PLAIN)
    draft = path.with_name("draft-" + path.name)
    doc.save(str(draft))
    line = "Staffing by Acme sent today"
    with pymupdf.open(draft) as document:
        page = document[0]
        page.insert_font(fontname="F9", fontbuffer=pymupdf.Font("cour").buffer)
        page.insert_text((LEFT, HEIGHT - SECRET_BASELINE), line, fontname="F9")
        font = next(f[0] for f in page.get_fonts() if f[4] == "F9")
        cmap_xref = int(document.xref_get_key(font, "ToUnicode")[1].split()[0])
        cmap = document.xref_stream(cmap_xref).decode("latin-1")
        # The glyph of "f" reads as "ff": "Staffing" extracts as "Staffffing".
        glyph = pymupdf.Font("cour").has_glyph(ord("f"))
        cmap = cmap.replace(
            "endbfrange",
            f"endbfrange\n1 beginbfchar\n<{glyph:04x}> <00660066>\nendbfchar",
            1,
        )
        document.update_stream(cmap_xref, cmap.encode("latin-1"))
        document.save(path)
        found = document[0].search_for(SECRET)
        assert len(found) == 1
        box = geometry.rect_to_box(geometry.page_rect_to_display(document[0], found[0]))
    others = words(*(text for _, text in PLAIN)) + ("by", "sent", "today")
    return Case("cid_font", path, (grown(box, 0.5),), others)
