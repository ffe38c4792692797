"""XFDF from a PDF's annotations and FDF, and back (engines/pdf/xfdf*.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf.fdf import export_fdf
from engines.pdf.xfdf import fdf_to_xfdf, pdf_to_xfdf
from engines.pdf.xfdf_read import read_xfdf, xfdf_to_fdf

NS = "{http://ns.adobe.com/xfdf/}"


@pytest.fixture
def annotated(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.set_rotation(90)
    ink = page.add_ink_annot([[(10, 10), (20, 30), (40, 50)]])
    ink.set_info(title="bob")
    ink.update()
    highlight = page.add_highlight_annot(pymupdf.Rect(20, 20, 120, 40))
    highlight.set_opacity(0.5)
    highlight.update()
    polygon = page.add_polygon_annot([(50, 50), (90, 60), (70, 90)])
    polygon.update()
    path = tmp_path / "annotated.pdf"
    doc.save(path)
    return path


def test_every_kind_survives_pdf_to_xfdf_to_fdf_to_xfdf(annotated: Path) -> None:
    xfdf = pdf_to_xfdf(str(annotated), file_name="a.pdf")
    root = ET.fromstring(xfdf)
    kinds = [e.tag.removeprefix(NS) for e in root.find(f"{NS}annots") or []]
    assert kinds == ["ink", "highlight", "polygon"]
    again = fdf_to_xfdf(xfdf_to_fdf(xfdf))
    assert again == xfdf


def test_the_xfdf_says_what_the_fdf_holds(annotated: Path) -> None:
    annotations, file_name = read_xfdf(pdf_to_xfdf(str(annotated), file_name="a.pdf"))
    assert file_name == "a.pdf"
    ink, highlight, polygon = annotations
    assert ink.attrs["title"] == "bob" and len(ink.gestures) == 1
    assert len(ink.gestures[0].split(";")) == 3
    assert highlight.attrs["opacity"] == "0.5"
    assert len(highlight.attrs["coords"].split(",")) == 8
    assert polygon.vertices is not None and len(polygon.vertices.split(";")) == 3
    # The FDF export and the XFDF carry the same rectangle, in PDF space.
    fdf = export_fdf(str(annotated)).decode("latin-1")
    rects = re.findall(r"/Rect \[([^\]]*)\]", fdf)
    in_fdf = [float(v) for v in rects[1].split()]
    in_xfdf = [float(v) for v in highlight.attrs["rect"].split(",")]
    assert in_xfdf == pytest.approx(in_fdf, abs=1e-3)


@pytest.mark.parametrize(
    "data",
    [
        b"<x/>",
        b"<xfdf><annots><bogus page='0'/></annots></xfdf>",
        b"<xfdf><annots><square page='a'/></annots></xfdf>",
        b"<xfdf><annots><square page='0' rect='1,2'/></annots></xfdf>",
        b"<xfdf><annots><square page='0' color='red'/></annots></xfdf>",
        b"<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><xfdf>&e;</xfdf>",
    ],
)
def test_bad_xfdf_is_an_engine_error(data: bytes) -> None:
    with pytest.raises(EngineError):
        xfdf_to_fdf(data)


def test_bad_fdf_is_an_engine_error() -> None:
    for data in (b"%PDF-1.4 not an fdf", b"%FDF-1.2\ngarbage"):
        with pytest.raises(EngineError):
            fdf_to_xfdf(data)
