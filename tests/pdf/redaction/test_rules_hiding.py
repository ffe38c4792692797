"""Hiding places redaction rules reach that a client's coordinates do not:
an annotation's rich text, form values a page may not show, an OCR layer
(invisible text over a scan), an Office document's properties carried into
its rendition's metadata and XMP. Each document is redacted by a rule (found
by `engines.rules`, redacted and scrubbed as an order does) in both modes and
judged as the hostile corpus is: the secret is gone for every judge and at
least 90 % of the page's other words stay.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from engines.pdf.annotate import apply_annotations
from engines.pdf.redact import Removed
from engines.pdf.types import Annotation, Placement
from engines.rules import Rule, find_matches
from tests.pdf.redaction import judges

SECRET = "Acme"
LINES = [
    "Alpha bravo charlie delta echo",
    "foxtrot golf hotel india juliet",
    "kilo lima mike november oscar",
]
OTHERS = tuple(word for line in LINES for word in line.split())


def _page(doc: pymupdf.Document) -> pymupdf.Page:
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate(LINES):
        page.insert_text((40, 60 + 30 * n), line, fontsize=11)
    return page


def rich_text_note(doc: pymupdf.Document) -> None:
    page = _page(doc)
    note = page.add_text_annot((360, 20), "see the file")
    doc.xref_set_key(
        note.xref, "RC", pymupdf.get_pdf_str("<body><p>Call <b>Acme</b></p></body>")
    )


def free_text_rich(doc: pymupdf.Document) -> None:
    page = _page(doc)
    box = page.add_freetext_annot(pymupdf.Rect(40, 200, 300, 230), "Paid by Acme")
    box.update()
    doc.xref_set_key(box.xref, "RC", pymupdf.get_pdf_str("<p>Paid by Acme</p>"))


def form_values(doc: pymupdf.Document) -> None:
    page = _page(doc)
    for name, rect, value, kind in (
        ("client", (40, 200, 200, 220), "Acme Ltd", pymupdf.PDF_WIDGET_TYPE_TEXT),
        ("vendor", (220, 200, 380, 220), "Acme", pymupdf.PDF_WIDGET_TYPE_COMBOBOX),
    ):
        widget = pymupdf.Widget()
        widget.field_name, widget.field_type = name, kind
        widget.rect = pymupdf.Rect(rect)
        if kind == pymupdf.PDF_WIDGET_TYPE_COMBOBOX:
            widget.choice_values = ["Acme", "Globex"]
        widget.field_value = value
        page.add_widget(widget)
    # A hidden field: its value is in the file, never on the page.
    hidden = pymupdf.Widget()
    hidden.field_name, hidden.field_type = "memo", pymupdf.PDF_WIDGET_TYPE_TEXT
    hidden.rect = pymupdf.Rect(40, 240, 200, 260)
    hidden.field_value = "for Acme only"
    page.add_widget(hidden)
    memo = next(w for w in page.widgets() if w.field_name == "memo")
    doc.xref_set_key(memo.xref, "F", "2")  # the annotation's hidden flag


def ocr_layer(doc: pymupdf.Document) -> None:
    """A scan: the page is a picture of its words, and an invisible text layer
    (render mode 3) says them, as a recognition writes it."""
    drawn = pymupdf.open()
    picture = drawn.new_page(width=400, height=300)
    for n, line in enumerate([*LINES, "Signed for Acme Holdings"]):
        picture.insert_text((40, 60 + 30 * n), line, fontsize=11)
    pixmap = picture.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
    page = doc.new_page(width=400, height=300)
    page.insert_image(page.rect, pixmap=pixmap)
    for n, line in enumerate([*LINES, "Signed for Acme Holdings"]):
        page.insert_text((40, 60 + 30 * n), line, fontsize=11, render_mode=3)


def office_properties(doc: pymupdf.Document) -> None:
    """What LibreOffice carries from a document's properties: the information
    dictionary and an XMP packet naming the same."""
    _page(doc)
    doc.set_metadata(
        {"title": "Acme memo", "author": "Acme legal", "subject": "for Acme",
         "keywords": "Acme, contract", "creator": "Writer"}
    )  # fmt: skip
    doc.set_xml_metadata(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/'
        '1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://'
        'purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">'
        "Acme memo</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF>"
        "</x:xmpmeta>"
    )


BUILDERS: dict[str, Callable[[pymupdf.Document], None]] = {
    "rich_text_note": rich_text_note,
    "free_text_rich": free_text_rich,
    "form_values": form_values,
    "ocr_layer": ocr_layer,
    "office_properties": office_properties,
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("rules-hiding")
    paths = {}
    for name, build in BUILDERS.items():
        doc = pymupdf.open()
        build(doc)
        paths[name] = folder / f"{name}.pdf"
        doc.save(paths[name])
    return paths


def redact_by_rule(path: Path, mode: str) -> Path:
    """As an order does (orders.matching): page and field matches become
    areas, every matched text is scrubbed elsewhere."""
    rule = Rule("text", SECRET)
    found = find_matches(str(path), [rule], document_key="doc")
    assert found, "the rule must find the secret"
    placements = [
        Placement(
            m.page,
            Annotation("RedactTextElemType", "doc", m.page, m.id, coords=m.boxes),
        )
        for m in found
        if m.is_area and m.page is not None
    ]
    out = path.with_name(f"{path.stem}-{mode}.pdf")
    report = apply_annotations(
        str(path),
        str(out),
        placements,
        mode=mode,  # type: ignore[arg-type]
        scrub=[Removed(m.text, m.starts_word, m.ends_word) for m in found],
    )
    assert report.redaction_verified is True
    assert report.evidence is not None
    return out


@pytest.mark.parametrize("mode", ["burn", "live"])
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_rule_reaches_the_secret_wherever_it_hides(
    built: dict[str, Path], name: str, mode: str
) -> None:
    assert judges.findings(built[name], SECRET)  # there before
    out = redact_by_rule(built[name], mode)
    assert judges.findings(out, SECRET) == []
    assert judges.surviving_share(out, 0, OTHERS) >= 0.9
