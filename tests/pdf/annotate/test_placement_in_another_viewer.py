"""Annotations show where they were placed when another renderer (poppler) draws the
page, on rotated pages and with an offset CropBox.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pymupdf
import pytest

from engines.pdf.types import Box, Point
from tests.pdf.annotate.helpers import (
    BLUE,
    GREEN,
    WHITE,
    YELLOW,
    annotation,
    count,
    near,
    run,
)


@pytest.mark.parametrize("mode", ["burn", "live"])
def test_annotations_land_in_place_on_a_rotated_page_with_an_offset_cropbox(
    tmp_path: Path, mode: str
) -> None:
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.set_cropbox(pymupdf.Rect(50, 80, 450, 700))
    page.set_rotation(90)
    document.save(tmp_path / "cropped.pdf")
    placements = [
        annotation(
            "SquareElemType", 0, position=Box(30, 40, 80, 50), interior_color=BLUE
        ),
        annotation(
            "LineElemType",
            0,
            start=Point(20, 200),
            end=Point(220, 200),
            color=GREEN,
            width=4,
        ),
        annotation(
            "FreetextElemType",
            0,
            position=Box(300, 40, 200, 40),
            contents="Cropped text",
            default_appearance="/Helv 14 Tf 1 0 0 rg",
        ),
    ]
    out = run(str(tmp_path / "cropped.pdf"), tmp_path, placements, mode)
    stem = tmp_path / "poppler"
    subprocess.run(
        ["pdftoppm", "-r", "72", "-png", "-singlefile", "-cropbox", out, str(stem)],
        check=True,
    )
    pix = pymupdf.Pixmap(f"{stem}.png")
    assert (pix.width, pix.height) == (620, 400)
    assert pix.pixel(70, 65) == (0, 0, 255)
    assert pix.pixel(28, 65) == pix.pixel(70, 95) == WHITE
    assert near(pix.pixel(120, 200), (0, 128, 0))
    assert count(pix, Box(300, 40, 200, 40), (255, 0, 0)) > 50


@pytest.mark.parametrize("page", [0, 1, 3], ids=["rot0", "rot90", "rot270"])
def test_live_annotations_render_in_place_in_another_viewer(
    source: str, tmp_path: Path, page: int
) -> None:
    placements = [
        annotation(
            "SquareElemType", page, position=Box(30, 40, 80, 50), interior_color=BLUE
        ),
        annotation("TextElemType", page, position=Box(200, 40, 20, 20), color=YELLOW),
    ]
    out = run(source, tmp_path, placements, "live")
    stem = tmp_path / "poppler"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "72",
            "-png",
            "-singlefile",
            "-f",
            str(page + 1),
            "-l",
            str(page + 1),
            out,
            str(stem),
        ],
        check=True,
    )
    pix = pymupdf.Pixmap(f"{stem}.png")
    assert pix.pixel(70, 65) == (0, 0, 255)
    assert pix.pixel(120, 65) == WHITE
    # Viewers draw a note upright at its natural size from its top-left corner.
    assert count(pix, Box(200, 40, 15, 15), (255, 255, 0)) > 60
    assert count(pix, Box(170, 40, 25, 40), (255, 255, 0)) == 0
