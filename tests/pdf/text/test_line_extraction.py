"""Line extraction: its fast paths equal the plain per-character definition, and
`page_lines` lists every line in reading order with widths that fit its box.
"""

from __future__ import annotations

import gc
import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pymupdf
import pytest

from engines.pdf import geometry, text
from engines.pdf.text.extract import extract_page
from tests.pdf.text.helpers import assert_widths_fit


def test_display_transform_matches_geometry_module() -> None:
    # Extraction transforms character boxes on plain floats with the page matrix
    # fetched once per page (speed); this pins it to geometry.page_rect_to_display.
    for rotation in (0, 90, 180, 270):
        page = pymupdf.open().new_page(width=300, height=500)
        page.set_rotation(rotation)
        rect = pymupdf.Rect(10, 20, 60, 35)
        transform = geometry.display_transformer(page)
        assert pymupdf.Rect(transform((rect.x0, rect.y0, rect.x1, rect.y1))) == (
            geometry.page_rect_to_display(page, rect)
        )


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_box_array_transform_equals_the_per_box_one(rotation: int) -> None:
    # Extraction transforms a page's character boxes as one array (and an
    # unrotated page without its matrix); each value must be the per-box one, bit
    # for bit, odd values included, and without a warning.
    page = pymupdf.open().new_page(width=300, height=500)
    page.set_cropbox(pymupdf.Rect(20, 30, 280, 470))
    page.set_rotation(rotation)
    rng = np.random.default_rng(rotation)
    odd = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 5e-324])
    boxes = np.concatenate(
        [
            rng.uniform(-100, 600, (500, 4)),
            rng.choice(odd, (500, 4)),
            np.where(
                rng.random((500, 4)) < 0.3,
                rng.choice(odd, (500, 4)),
                rng.uniform(-100, 600, (500, 4)),
            ),
        ]
    )
    finite = np.where(
        rng.random((500, 4)) < 0.3,
        rng.choice(odd[np.isfinite(odd)], (500, 4)),
        rng.uniform(-100, 600, (500, 4)),
    )
    per_box = geometry.display_transformer(page)
    for some in (finite, boxes):  # all finite: the unrotated page's short way
        expected = np.array([per_box(tuple(map(float, box))) for box in some])
        for transform in (
            geometry.display_boxes_transformer(page),
            geometry.display_boxes_transformer(page, page.rotation),
        ):
            got = transform(some)
            assert np.array_equal(got, expected, equal_nan=True)
            assert np.array_equal(np.signbit(got), np.signbit(expected))


def rawdict_blocks(page: pymupdf.Page) -> list[dict[str, Any]]:
    """MuPDF's characters as extraction asks for them: ligatures and white space
    kept, characters wholly outside the CropBox dropped."""
    flags = (
        pymupdf.TEXT_PRESERVE_LIGATURES
        | pymupdf.TEXT_PRESERVE_WHITESPACE
        | pymupdf.TEXT_MEDIABOX_CLIP
    )
    return page.get_text("rawdict", flags=flags)["blocks"]


def reference_lines(page: pymupdf.Page) -> list[tuple[Any, ...]]:
    """The page's lines as extraction defines them, one character at a time: each
    box to displayed space, characters whose centre is off the displayed page
    (outside the CropBox) left out, lines left empty dropped."""
    transform = geometry.display_transformer(page)
    visible = page.rect
    lines = []
    for number, block in enumerate(rawdict_blocks(page)):
        for line in block.get("lines", ()):
            chars: list[str] = []
            rects: list[float] = []
            starts, fonts = [], []
            for span in line["spans"]:
                starts.append(len(chars))
                font = re.sub(r"^[A-Z]{6}\+", "", span["font"])
                fonts.append((font, float(span["size"])))
                for char in span["chars"]:
                    rect = transform(char["bbox"])
                    x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
                    if visible.x0 <= x <= visible.x1 and visible.y0 <= y <= visible.y1:
                        chars.append(char["c"])
                        rects.extend(rect)
            if chars:
                rotation = geometry.line_rotation(tuple(line["dir"]), page.rotation)
                line_data = ("".join(chars), rects, starts, fonts, number, rotation)
                lines.append(line_data)
    return lines


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize(
    ("mediabox", "cropbox"),
    [
        ([0, 0, 600, 800], [0, 0, 600, 800]),
        ([0, 0, 600, 800], [40, 50, 500, 700]),
        ([-30, -40, 610, 820], [-10, 53.3, 471.7, 707.9]),
    ],
    ids=["uncropped", "cropped", "offset"],
)
def test_extraction_equals_the_per_character_definition(
    rotation: int, mediabox: list[float], cropbox: list[float]
) -> None:
    # Extraction takes shortcuts for speed (whole-page arrays, lines copied whole
    # when all their characters are visible, no matrix on unrotated pages); its
    # lines must be exactly those of the plain definition, characters cut by the
    # CropBox edges included.
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    for y in range(8, 800, 13):
        page.insert_text((-25 + y % 41, y), f"edge crossing text {y} " * 4, fontsize=11)
    page.insert_text((300, 400), "turned a quarter", rotate=90)
    page.insert_text((300, 400), "upside down", rotate=180)
    page.insert_text((300, 400), "fi ligature", fontname="Times-Roman")
    with pikepdf.open(io.BytesIO(document.tobytes())) as pdf:
        pdf.pages[0].MediaBox = pikepdf.Array(mediabox)
        pdf.pages[0].CropBox = pikepdf.Array(cropbox)
        pdf.pages[0].Rotate = rotation
        out = io.BytesIO()
        pdf.save(out)
    page = pymupdf.open("pdf", out.getvalue())[0]

    expected = reference_lines(page)
    lines = extract_page(page, 0).lines
    got = [
        (
            line.text,
            list(line.rects),
            list(line.span_starts),
            list(line.span_fonts),
            line.block,
            line.rotation,
        )
        for line in lines
    ]
    assert got == expected
    # The page really has characters whose centre the CropBox cuts off (MuPDF
    # keeps them: their box overlaps it), and turned lines.
    if cropbox != mediabox:
        drawn = sum(
            len(span["chars"])
            for block in rawdict_blocks(page)
            for line in block.get("lines", ())
            for span in line["spans"]
        )
        assert sum(len(line.text) for line in lines) < drawn
    assert len({line.rotation for line in lines}) >= 2


@pytest.mark.parametrize("enabled", [True, False])
def test_extraction_leaves_the_garbage_collector_as_it_was(
    two_lines_pdf: str, enabled: bool
) -> None:
    # Extraction holds the collector while it makes MuPDF's many small objects.
    page = pymupdf.open(two_lines_pdf)[0]
    (gc.enable if enabled else gc.disable)()
    try:
        assert extract_page(page, 0).lines
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


def test_page_lines_lists_every_line_in_reading_order(two_lines_pdf: str) -> None:
    lines = text.page_lines(two_lines_pdf, 0)
    assert [line.text for line in lines] == [
        "the quick brown",
        "fox jumps over",
        "A separate paragraph far below.",
    ]
    for line in lines:
        assert_widths_fit(line)


@pytest.mark.corpus
def test_widths_sum_to_box_width_on_real_pages(corpus: Path) -> None:
    for name, page in [("tracemonkey.pdf", 0), ("Harmattan-features.pdf", 6)]:
        for line in text.page_lines(str(corpus / name), page):
            assert_widths_fit(line)
