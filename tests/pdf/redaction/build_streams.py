"""Hostile PDFs, round two, 1 to 3: streams a scrub must read, strings decoded
as readers decode them, escaped copies."""

from __future__ import annotations

from pathlib import Path

from pikepdf import Array, Dictionary, Name, String

from tests.pdf.redaction.cases import Case, case, standard
from tests.pdf.redaction.pdfkit import Doc, xmp

# --- 1. streams the scrub must read ---------------------------------------------


def script_in_chained_action(path: Path) -> Case:
    """A link whose action chains (/Next) to a script stored as a stream."""
    doc = Doc.new()
    page = standard(doc)
    script = doc.stream(b"app.alert('Acme');")
    second = Dictionary(S=Name.JavaScript, JS=script)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Link,
            Rect=Array([300, 20, 390, 40]),
            A=Dictionary(S=Name.URI, URI=String("https://example.org/"), Next=second),
        ),
    )
    return case("script_in_chained_action", path, doc)


def script_on_field_parent(path: Path) -> Case:
    """A field whose parent (not the widget) holds a script stream in /AA."""
    doc = Doc.new()
    page = standard(doc)
    parent = doc.pdf.make_indirect(
        Dictionary(
            FT=Name.Tx,
            T=String("total"),
            Kids=Array(),
            AA=Dictionary(K=Dictionary(S=Name.JavaScript, JS=doc.stream(b"// Acme"))),
        )
    )
    kid = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            Parent=parent,
            Rect=Array([300, 20, 390, 40]),
            F=4,
        ),
    )
    parent.Kids.append(kid)
    doc.pdf.Root.AcroForm = Dictionary(Fields=Array([parent]))
    return case("script_on_field_parent", path, doc)


def rich_text_stream(path: Path) -> Case:
    """A free-text note whose rich text (/RC) is a stream."""
    doc = Doc.new()
    page = standard(doc)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.FreeText,
            Rect=Array([300, 20, 390, 40]),
            Contents=String("note"),
            DA=String("/F1 9 Tf 0 g"),
            RC=doc.stream(b"<body><p>Acme</p></body>"),
        ),
    )
    return case("rich_text_stream", path, doc)


def untyped_xmp(path: Path) -> Case:
    """XMP whose stream has neither /Type nor /Subtype."""
    doc = Doc.new()
    standard(doc)
    doc.pdf.Root.Metadata = doc.stream(xmp("Acme report"))
    return case("untyped_xmp", path, doc)


def utf16_xmp(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    doc.pdf.Root.Metadata = doc.stream(
        xmp("Acme report").decode().encode("utf-16"),
        Type=Name.Metadata,
        Subtype=Name.XML,
    )
    return case("utf16_xmp", path, doc)


def cdata_xmp(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    doc.pdf.Root.Metadata = doc.stream(
        xmp("<![CDATA[Acme report]]>"), Type=Name.Metadata, Subtype=Name.XML
    )
    return case("cdata_xmp", path, doc)


# --- 2. strings decoded as readers decode them ------------------------------------


def pdfdoc_strings(path: Path) -> Case:
    """The secret "Škoda" in PDFDocEncoding (Š is byte 0x97 there), as
    pikepdf and qpdf write it; shown in WinAnsi (Š is 0x8A there)."""
    doc = Doc.new()
    line = "Invoice for Škoda sent today"
    standard(doc, line)
    doc.pdf.trailer.Info = doc.pdf.make_indirect(
        Dictionary(Title=String("Škoda report"), Subject=String(b"\x97koda \x93le"))
    )
    others = ("Invoice", "for", "sent", "today", "Alpha", "bravo", "kilo", "lima")
    return case("pdfdoc_strings", path, doc, line, secret="Škoda", others=others)


def utf16le_string(path: Path) -> Case:
    doc = Doc.new()
    standard(doc)
    doc.pdf.trailer.Info = doc.pdf.make_indirect(
        Dictionary(Subject=String(b"\xff\xfe" + "about Acme".encode("utf-16-le")))
    )
    return case("utf16le_string", path, doc)


def spot_colour_name(path: Path) -> Case:
    """A separation colour (a PDF name, not a string) named after the word."""
    doc = Doc.new()
    tint = Dictionary(
        FunctionType=2, Domain=Array([0, 1]), C0=Array([1]), C1=Array([0]), N=1
    )
    page = standard(doc, extra="/CS1 cs 1 scn 300 20 50 10 re f\n")
    page.Resources.ColorSpace = Dictionary(
        CS1=Array([Name.Separation, Name("/Acme"), Name.DeviceGray, tint])
    )
    return case("spot_colour_name", path, doc)


def resource_and_font_names(path: Path) -> Case:
    """The word as a resource name and as an embedded font's name."""
    doc = Doc.new()
    page = standard(doc, extra="BT /Acme 8 Tf 300 20 Td (kept) Tj ET\n")
    page.Resources.Font[Name("/Acme")] = doc.pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name("/ABCDEF+Acme-Bold"),
            Encoding=Name.WinAnsiEncoding,
        )
    )
    return case("resource_and_font_names", path, doc)


def comment_in_content(path: Path) -> Case:
    doc = Doc.new()
    standard(doc, extra="% drafted for Acme\n")
    return case("comment_in_content", path, doc)


def layer_and_label_names(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc, extra="/OC /L1 BDC 0 g 300 20 5 5 re f EMC\n")
    layer = doc.pdf.make_indirect(Dictionary(Type=Name.OCG, Name=String("Acme layer")))
    page.Resources.Properties = Dictionary(L1=layer)
    doc.pdf.Root.OCProperties = Dictionary(OCGs=Array([layer]), D=Dictionary())
    doc.pdf.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(P=String("Acme-"))]))
    doc.pdf.trailer.Info = doc.pdf.make_indirect(
        Dictionary({"/Client": String("Acme")})
    )
    return case("layer_and_label_names", path, doc)


# --- 3. escaped copies ---------------------------------------------------------------


def percent_encoded_uri(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Link,
            Rect=Array([300, 20, 390, 40]),
            A=Dictionary(S=Name.URI, URI=String("https://example.org/%41%63%6D%65")),
        ),
    )
    return case("percent_encoded_uri", path, doc)


def character_references(path: Path) -> Case:
    doc = Doc.new()
    page = standard(doc)
    doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Text,
            Rect=Array([360, 20, 380, 40]),
            Contents=String("see rich text"),
            RC=String("<body><p>&#65;&#x63;me</p></body>"),
        ),
    )
    return case("character_references", path, doc)


def widget_appearance_winansi(path: Path) -> Case:
    """A field elsewhere on the page whose appearance draws the word with a
    WinAnsi font in hex (its value says something else)."""
    doc = Doc.new()
    page = standard(doc)
    rect = (300.0, 20.0, 390.0, 40.0)
    appearance = doc.form(
        "/Tx BMC BT /F1 9 Tf 2 4 Td <41636D65> Tj ET EMC", bbox=(0, 0, 90, 20)
    )
    widget = doc.annotate(
        page,
        Dictionary(
            Type=Name.Annot,
            Subtype=Name.Widget,
            FT=Name.Tx,
            T=String("code"),
            V=String("1234"),
            Rect=Array(list(rect)),
            F=4,
            AP=Dictionary(N=appearance),
        ),
    )
    doc.pdf.Root.AcroForm = Dictionary(
        Fields=Array([widget]), DA=String("/F1 9 Tf 0 g")
    )
    return case("widget_appearance_winansi", path, doc)
