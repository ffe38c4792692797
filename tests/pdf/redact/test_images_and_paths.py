"""Redaction of what draws under an area besides text: image pixels (not a shared
copy's) and vector paths.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf import redact
from engines.pdf.types import Box
from tests.pdf.redact.helpers import line_boxes, redact_file, text_lines, texts, zone


def test_zone_over_an_image_blanks_its_pixels_but_not_the_shared_copy(
    secret_pdf: Path,
) -> None:
    # The image (50 × 50 px) fills (250, 100)-(350, 200): 2 pt per pixel.
    out = redact_file(secret_pdf, [zone(0, Box(260, 110, 40, 40))])
    with pymupdf.open(out) as document:
        first = document[0].get_images(full=True)
        second = document[1].get_images(full=True)
        assert len(first) == len(second) == 1
        assert first[0][0] != second[0][0]
        redacted = pymupdf.Pixmap(document, first[0][0])
        shared = pymupdf.Pixmap(document, second[0][0])
        assert redacted.pixel(10, 10) == redacted.pixel(19, 19) == (255, 255, 255)
        assert redacted.pixel(2, 2) == redacted.pixel(30, 30) == (255, 0, 0)
        assert shared.pixel(10, 10) == (255, 0, 0)
        shown = document[0].get_pixmap(dpi=72)
    assert shown.pixel(280, 130) == (0, 0, 0)  # the zone's default fill
    assert shown.pixel(320, 180) == (255, 0, 0)


def test_vector_paths_fully_inside_go_and_crossing_paths_stay(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.draw_rect(pymupdf.Rect(110, 110, 130, 130), color=None, fill=(0, 1, 0))
    page.draw_line((50, 120), (350, 120), color=(0, 0, 1), width=1)
    document.save(tmp_path / "paths.pdf")
    out = redact_file(tmp_path / "paths.pdf", [zone(0, Box(100, 100, 50, 50))])
    with pymupdf.open(out) as result:
        drawings = result[0].get_drawings()
    fills = [d.get("fill") for d in drawings]
    strokes = [d.get("color") for d in drawings]
    assert (0.0, 1.0, 0.0) not in fills
    assert (0.0, 0.0, 1.0) in strokes


@pytest.mark.parametrize("touched_line", [False, True])
def test_text_image_pixels_and_paths_under_one_area_all_go(
    tmp_path: Path, touched_line: bool
) -> None:
    # One area over a line of text, part of an image (1 pt per pixel) and a
    # square path; with `touched_line`, it also enters the next line by a tenth
    # of its height, so the text goes by a narrowed area and the rest by the
    # area as drawn.
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "alpha secret omega", fontsize=12)
    page.insert_text((50, 215), "kept line", fontsize=12)
    red = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 100, 150), False)
    red.set_rect(red.irect, (255, 0, 0))
    page.insert_image(pymupdf.Rect(200, 80, 300, 230), pixmap=red)
    page.draw_rect(pymupdf.Rect(210, 150, 230, 170), color=None, fill=(0, 1, 0))
    kept = line_boxes(page)[1]
    bottom = kept.y0 + 0.1 * kept.height if touched_line else kept.y0 - 3
    removed = redact.redact_page(page, [(Box(40, 85, 200, bottom - 85), None)]).removed
    document.save(tmp_path / "mixed.pdf")
    assert texts(removed) == ["alpha", "secret", "omega"]
    assert text_lines(tmp_path / "mixed.pdf") == ["kept line"]
    with pymupdf.open(tmp_path / "mixed.pdf") as result:
        fills = [d.get("fill") for d in result[0].get_drawings()]
        pixels = pymupdf.Pixmap(result, result[0].get_images()[0][0])
    assert (0.0, 1.0, 0.0) not in fills
    # Pixel (x, y) covers (200 + x, 80 + y) on the page; the area starts at y 85.
    assert pixels.pixel(20, 10) == pixels.pixel(35, int(bottom) - 85) == (255,) * 3
    assert pixels.pixel(20, 1) == pixels.pixel(45, 50) == (255, 0, 0)
    assert pixels.pixel(20, int(bottom) - 75) == (255, 0, 0)
