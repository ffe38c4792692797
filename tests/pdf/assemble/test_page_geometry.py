"""Pages keep their rotation, MediaBox and CropBox, inherited ones included."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.pdf.assemble import assemble, page_count
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _geometry, _qpdf_check


def test_rotation_and_crop_box_survive(tmp_path: Path) -> None:
    source = tmp_path / "rotated.pdf"
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page(width=400, height=300)
        page.insert_text((40, 60), f"page {n + 1}")
    doc[1].set_rotation(90)
    doc[2].set_cropbox(pymupdf.Rect(10, 20, 210, 220))
    doc[2].set_rotation(270)
    doc.save(str(source))
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("r", str(source), (PageRange(3, 3), PageRange(1, 3)))], out)

    before = _geometry(str(source))
    assert _geometry(out) == [before[2], before[0], before[1], before[2]]
    assert [g["rot"] for g in _geometry(out)] == ["270", "0", "90", "270"]


def test_rotation_and_boxes_inherited_from_the_page_tree_survive(
    tmp_path: Path,
) -> None:
    source = str(tmp_path / "inherited.pdf")
    with pikepdf.new() as pdf:
        for _ in range(2):
            content = pdf.make_stream(b"BT /F1 12 Tf 40 60 Td (page) Tj ET")
            pdf.pages.append(
                pikepdf.Page(
                    pikepdf.Dictionary(Type=pikepdf.Name.Page, Contents=content)
                )
            )
        tree = pdf.Root.Pages
        tree.Rotate = 90
        tree.MediaBox = [0, 0, 500, 400]
        tree.CropBox = [50, 40, 450, 360]
        for page in pdf.pages:  # only the tree says how pages look
            for key in ("/Rotate", "/MediaBox", "/CropBox"):
                if key in page.obj:
                    del page.obj[key]
        pdf.save(source)
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("i", source, (PageRange(2, 2), PageRange(1, 1)))], out)

    for shown in _geometry(out):
        assert shown["rot"] == "90"
        assert shown["MediaBox"] == "0.00 0.00 500.00 400.00"
        assert shown["CropBox"] == "50.00 40.00 450.00 360.00"
    _qpdf_check(out)


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["rotation.pdf", "hello_world_rotated.pdf"])
def test_corpus_page_rotations_survive(corpus: Path, name: str, tmp_path: Path) -> None:
    source = str(corpus / name)
    count = page_count(source)
    out = str(tmp_path / "out.pdf")
    # Last page first, then the whole document: every rotation in a new place.
    ranges = (PageRange(count, count), PageRange(1, count))

    assemble([SourceElement("c", source, ranges)], out)

    before = _geometry(source)
    after = _geometry(out)
    assert after == [before[-1], *before]
    assert any(g["rot"] != "0" for g in after)
    _qpdf_check(out)
