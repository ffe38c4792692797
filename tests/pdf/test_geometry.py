"""Displayed space ↔ PDF space, checked against the /Rect MuPDF itself writes."""

from __future__ import annotations

import io

import pikepdf
import pymupdf
import pytest

from engines.pdf import geometry
from engines.pdf.types import Box


def page_with(
    mediabox: list[float], cropbox: list[float], rotate: int
) -> pymupdf.Document:
    doc = pymupdf.open()
    doc.new_page(width=600, height=800)
    with pikepdf.open(io.BytesIO(doc.tobytes())) as pdf:
        page = pdf.pages[0]
        page.MediaBox = pikepdf.Array(mediabox)
        page.CropBox = pikepdf.Array(cropbox)
        page.Rotate = rotate
        out = io.BytesIO()
        pdf.save(out)
    return pymupdf.open("pdf", out.getvalue())


@pytest.mark.parametrize(
    ("mediabox", "cropbox", "rotate"),
    [
        ([0, 0, 600, 800], [0, 0, 600, 800], 0),
        ([0, 0, 600, 800], [40, 30, 500, 700], 0),
        ([10, 20, 610, 820], [40, 50, 500, 700], 0),
        ([10, 20, 610, 820], [40, 50, 500, 700], 90),
        ([0, 0, 600, 800], [20, 30, 280, 470], 180),
        ([0, 0, 600, 800], [20, 30, 280, 470], 270),
    ],
)
def test_display_to_pdf_rect_matches_mupdf_and_inverts(
    mediabox: list[float], cropbox: list[float], rotate: int
) -> None:
    doc = page_with(mediabox, cropbox, rotate)
    page = doc[0]
    box = Box(10, 20, 30, 40)
    annot = page.add_rect_annot(geometry.display_to_page_rect(page, box))
    border = annot.border["width"]
    with pikepdf.open(io.BytesIO(doc.tobytes())) as pdf:
        truth = [float(v) for v in pdf.pages[0].Annots[0].Rect]
    ours = geometry.display_to_pdf_rect(page, box)
    padded = [ours.x0 - border, ours.y0 - border, ours.x1 + border, ours.y1 + border]
    assert truth == pytest.approx(padded, abs=0.01)
    back = geometry.pdf_rect_to_display(page, ours)
    assert (back.x, back.y, back.w, back.h) == pytest.approx((10, 20, 30, 40), abs=1e-6)


@pytest.mark.parametrize(
    ("direction", "page_rotation", "expected"),
    [
        ((1, 0), 0, 0),
        ((0, 1), 0, 90),
        ((-1, 0), 0, 180),
        ((0, -1), 0, 270),
        ((1, 0), 90, 90),
        ((0, -1), 90, 0),
        ((1, 0), 270, 270),
    ],
)
def test_line_rotation_is_the_direction_on_the_displayed_page(
    direction: tuple[float, float], page_rotation: int, expected: int
) -> None:
    assert geometry.line_rotation(direction, page_rotation) == expected


@pytest.mark.parametrize(
    ("mediabox", "cropbox", "rotate"),
    [
        ([0, 0, 600, 800], [0, 0, 600, 800], 0),
        ([10, 20, 610, 820], [40, 50, 500, 700], 90),
        ([0, 0, 600, 800], [20, 30, 280, 470], 180),
        ([0, 0, 600, 800], [20, 30, 280, 470], 270),
    ],
)
def test_display_to_pdf_matrix_agrees_with_display_to_pdf_rect(
    mediabox: list[float], cropbox: list[float], rotate: int
) -> None:
    page = page_with(mediabox, cropbox, rotate)[0]
    box = Box(10, 20, 30, 40)
    corners = pymupdf.Rect(10, 20, 40, 60) * geometry.display_to_pdf_matrix(page)
    assert tuple(corners) == pytest.approx(
        tuple(geometry.display_to_pdf_rect(page, box)), abs=1e-6
    )
