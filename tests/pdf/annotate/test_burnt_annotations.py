"""Burnt annotations are drawn into the page content where they were placed, in
their colours and opacity, and leave no annotation object behind.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf import geometry
from engines.pdf.types import Box, Point
from tests.pdf.annotate.helpers import (
    BLUE,
    GREEN,
    RED,
    ROTATIONS,
    WHITE,
    YELLOW,
    annotation,
    annotation_subtypes,
    count,
    near,
    pixmap,
    run,
)


@pytest.mark.parametrize("page", range(4), ids=[f"rot{r}" for r in ROTATIONS])
def test_burnt_square_fills_its_displayed_position(
    source: str, tmp_path: Path, page: int
) -> None:
    box = Box(30, 40, 80, 50)
    out = run(
        source,
        tmp_path,
        [annotation("SquareElemType", page, position=box, interior_color=BLUE)],
        "burn",
    )
    pix = pixmap(out, page)
    assert pix.pixel(70, 65) == (0, 0, 255)
    assert pix.pixel(32, 42) == (0, 0, 255)
    assert pix.pixel(70, 100) == WHITE  # 10 pt below the box
    assert pix.pixel(120, 65) == WHITE  # 10 pt right of the box


def test_burnt_square_at_half_opacity_blends_with_the_page(
    source: str, tmp_path: Path
) -> None:
    box = Box(30, 40, 80, 50)
    out = run(
        source,
        tmp_path,
        [
            annotation(
                "SquareElemType", 0, position=box, interior_color=BLUE, opacity=0.5
            )
        ],
        "burn",
    )
    assert near(pixmap(out, 0).pixel(70, 65), (128, 128, 255))


def test_burnt_square_border_lies_inside_the_box(source: str, tmp_path: Path) -> None:
    box = Box(30, 40, 80, 50)
    placement = annotation(
        "SquareElemType", 1, position=box, interior_color=BLUE, color=RED, width=6
    )
    pix = pixmap(run(source, tmp_path, [placement], "burn"), 1)
    assert pix.pixel(31, 65) == (255, 0, 0)
    assert pix.pixel(108, 65) == (255, 0, 0)
    assert pix.pixel(70, 65) == (0, 0, 255)
    assert pix.pixel(28, 65) == WHITE


@pytest.mark.parametrize("width", [1, 2])
@pytest.mark.parametrize("page", [0, 1], ids=["rot0", "rot90"])
def test_burnt_thin_square_border_covers_its_width_inside_each_edge(
    source: str, tmp_path: Path, page: int, width: int
) -> None:
    # Borders up to 2 pt stay within MuPDF's minimal 1 pt /RD padding.
    box = Box(30, 40, 80, 50)
    placement = annotation(
        "SquareElemType",
        page,
        position=box,
        interior_color=BLUE,
        color=RED,
        width=width,
    )
    pix = pixmap(run(source, tmp_path, [placement], "burn"), page)
    red, blue = (255, 0, 0), (0, 0, 255)
    inward = [WHITE] + [red] * width + [blue]
    assert [pix.pixel(x, 65) for x in range(29, 31 + width)] == inward
    assert [pix.pixel(x, 65) for x in range(110, 108 - width, -1)] == inward
    assert [pix.pixel(70, y) for y in range(39, 41 + width)] == inward
    assert [pix.pixel(70, y) for y in range(90, 88 - width, -1)] == inward


@pytest.mark.parametrize("page", range(4), ids=[f"rot{r}" for r in ROTATIONS])
def test_burnt_line_runs_from_start_to_end(
    source: str, tmp_path: Path, page: int
) -> None:
    placement = annotation(
        "LineElemType",
        page,
        start=Point(20, 200),
        end=Point(220, 200),
        color=GREEN,
        width=4,
        head="OPEN_ARROW",
        tail="NONE",
    )
    pix = pixmap(run(source, tmp_path, [placement], "burn"), page)
    assert near(pix.pixel(60, 200), (0, 128, 0))
    assert near(pix.pixel(180, 200), (0, 128, 0))
    assert pix.pixel(120, 210) == WHITE
    # The open arrow at `end` spreads above and below the line near its tip.
    assert count(pix, Box(200, 185, 20, 10), (0, 128, 0)) > 0
    assert count(pix, Box(10, 185, 20, 10), (0, 128, 0)) == 0


@pytest.mark.parametrize("page", range(4), ids=[f"rot{r}" for r in ROTATIONS])
def test_burnt_freetext_lands_in_its_box_and_reads_upright(
    source: str, tmp_path: Path, page: int
) -> None:
    box = Box(40, 120, 220, 40)
    placement = annotation(
        "FreetextElemType",
        page,
        position=box,
        contents="Burnt words here",
        default_appearance="/Helv 14 Tf 1 0 0 rg",
    )
    out = run(source, tmp_path, [placement], "burn")
    assert count(pixmap(out, page), box, (255, 0, 0)) > 50
    with pymupdf.open(out) as document:
        shown = document[page]
        lines = [
            line
            for block in shown.get_text("dict")["blocks"]
            for line in block.get("lines", ())
        ]
    assert len(lines) == 1
    assert "".join(span["text"] for span in lines[0]["spans"]) == "Burnt words here"
    assert geometry.line_rotation(lines[0]["dir"], ROTATIONS[page]) == 0
    with pymupdf.open(out) as document:
        where = geometry.page_rect_to_display(
            document[page], pymupdf.Rect(lines[0]["bbox"])
        )
    assert where in geometry.box_to_rect(box) + (-4, -4, 4, 4)


def test_burnt_rich_text_keeps_its_styles(source: str, tmp_path: Path) -> None:
    box = Box(40, 120, 220, 40)
    xhtml = (
        '<?xml version="1.0"?><body xmlns="http://www.w3.org/1999/xhtml">'
        '<p>Plain <span style="color:#ff0000">red</span> text</p></body>'
    )
    placement = annotation(
        "FreetextElemType", 2, position=box, rich_text=xhtml, color=BLUE
    )
    pix = pixmap(run(source, tmp_path, [placement], "burn"), 2)
    assert count(pix, box, (255, 0, 0)) > 10
    assert count(pix, box, (0, 0, 255)) > 10


@pytest.mark.parametrize("page", range(4), ids=[f"rot{r}" for r in ROTATIONS])
def test_burnt_note_draws_its_icon_in_its_box(
    source: str, tmp_path: Path, page: int
) -> None:
    box = Box(200, 40, 30, 30)
    placement = annotation(
        "TextElemType",
        page,
        position=box,
        icon="Note",
        contents="a note",
        creator="Ann",
        color=YELLOW,
    )
    pix = pixmap(run(source, tmp_path, [placement], "burn"), page)
    assert count(pix, box, (255, 255, 0)) > 400  # most of the 30 × 30 box
    assert count(pix, Box(160, 40, 30, 30), (255, 255, 0)) == 0
    assert count(pix, Box(200, 80, 30, 30), (255, 255, 0)) == 0


def test_burn_leaves_no_annotation_object_but_the_source_links(
    source: str, tmp_path: Path
) -> None:
    placements = [
        placement
        for page in range(4)
        for placement in (
            annotation(
                "SquareElemType",
                page,
                position=Box(30, 40, 80, 50),
                interior_color=BLUE,
            ),
            annotation(
                "FreetextElemType",
                page,
                position=Box(40, 120, 200, 40),
                contents="text",
            ),
            annotation(
                "TextElemType", page, position=Box(200, 40, 30, 30), contents="note"
            ),
            annotation("LineElemType", page, start=Point(20, 200), end=Point(220, 200)),
        )
    ]
    out = run(source, tmp_path, placements, "burn")
    assert annotation_subtypes(out) == [["/Link"]] * 4
