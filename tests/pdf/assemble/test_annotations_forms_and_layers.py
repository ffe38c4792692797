"""Annotations, form fields and optional content (layers) of copied pages stay
whole and separate: each copy its own, hidden layers still hidden.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pymupdf

from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _qpdf_check, _texts


def test_a_repeated_page_gets_its_own_annotations(tmp_path: Path) -> None:
    source = tmp_path / "noted.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    note = page.add_text_annot((100, 100), "a note")
    note.set_popup(pymupdf.Rect(200, 100, 300, 200))
    note.update()
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("n", str(source), (PageRange(1, 1), PageRange(1, 1)))], out)

    with pikepdf.open(out) as pdf:
        seen = set()
        for copy in pdf.pages:
            annots = {a.Subtype: a for a in copy.obj.Annots}
            text, popup = annots[pikepdf.Name.Text], annots[pikepdf.Name.Popup]
            assert text.P.objgen == copy.obj.objgen
            assert text.Popup.objgen == popup.objgen
            assert popup.Parent.objgen == text.objgen
            seen |= {text.objgen, popup.objgen}
        assert len(seen) == 4
    _qpdf_check(out)


def test_form_fields_stay_fields_and_repeats_get_their_own_names(
    tmp_path: Path,
) -> None:
    source = tmp_path / "form.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    widget = pymupdf.Widget()
    widget.field_name = "name"
    widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(100, 100, 300, 130)
    widget.field_value = "Alice"
    page.add_widget(widget)
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("f", str(source), (PageRange(1, 1), PageRange(1, 1)))], out)

    with pymupdf.open(out) as pdf:
        fields = [(w.field_name, w.field_value) for page in pdf for w in page.widgets()]
    assert len(fields) == 2
    assert len({name for name, _ in fields}) == 2
    assert {value for _, value in fields} == {"Alice"}
    _qpdf_check(out)


def test_a_field_keeps_only_its_widgets_on_copied_pages(tmp_path: Path) -> None:
    # One text field, one widget on each of two pages, both showing its value:
    # copying page 1 alone must not bring page 2's widget along in /AcroForm.
    from tests.pdf.redaction.build_forms import multi_page_field

    case = multi_page_field(tmp_path / "field.pdf")
    out = tmp_path / "out.pdf"
    assemble([SourceElement("d", str(case.path), (PageRange(1, 1),))], str(out))
    with pikepdf.open(out) as pdf:
        on_page = {annot.objgen for annot in pdf.pages[0].Annots}
        [field] = pdf.Root.AcroForm.Fields
        assert [kid.objgen for kid in field.Kids] == sorted(on_page)
        widgets = [
            obj
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Widget"
        ]
        assert len(widgets) == 1
    _qpdf_check(str(out))


def test_hidden_layers_stay_hidden(tmp_path: Path) -> None:
    from tests.pdf.redaction.build_files import optional_content

    case = optional_content(tmp_path / "layers.pdf")
    out = tmp_path / "out.pdf"
    elements = [SourceElement(key, str(case.path)) for key in ("a", "b")]
    assemble(elements, str(out))
    assert "hiddenword" not in " ".join(_texts(str(out)))
    assert "Alpha" in _texts(str(out))[1]
    with pikepdf.open(out) as pdf:
        properties = pdf.Root.OCProperties
        assert [str(layer.Name) for layer in properties.D.OFF] == ["Draft"]
        assert len(properties.OCGs) == 1
