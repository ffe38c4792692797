"""Live annotations are PDF annotation objects that carry every property given
(position, colours, opacity, author, dates, icons, line endings, rich text).
"""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.pdf import geometry
from engines.pdf.annotate import LINE_ENDINGS
from engines.pdf.types import Box, Point
from tests.pdf.annotate.helpers import (
    BLUE,
    GREEN,
    RED,
    ROTATIONS,
    YELLOW,
    Reader,
    annotation,
    annotation_subtypes,
    corners,
    numbers,
    pdf_rect,
    pixmap,
    run,
)


@pytest.mark.parametrize("page", [0, 1, 3], ids=["rot0", "rot90", "rot270"])
def test_live_square_carries_its_properties(
    source: str, tmp_path: Path, live_annots: Reader, page: int
) -> None:
    box = Box(30, 40, 80, 50)
    placement = annotation(
        "SquareElemType",
        page,
        annotation_id="sq-1",
        position=box,
        interior_color=BLUE,
        color=RED,
        width=2,
        opacity=0.5,
        creator="Ann",
        contents="a square",
        creation_date=1_700_000_000_000,
    )
    out = run(source, tmp_path, [placement], "live")
    square = live_annots(out, page)["sq-1"]
    assert square.Subtype == pikepdf.Name.Square
    assert numbers(square.Rect) == pytest.approx(
        corners(pdf_rect(out, page, box)), abs=0.01
    )
    assert numbers(square.C) == [1, 0, 0]
    assert numbers(square.IC) == [0, 0, 1]
    assert float(square.CA) == 0.5
    assert float(square.BS.W) == 2
    assert str(square.T) == "Ann"
    assert str(square.Contents) == "a square"
    assert str(square.CreationDate) == "D:20231114221320+00'00'"
    assert isinstance(square.AP.N, pikepdf.Stream)


def test_live_square_without_border_colour_has_no_border(
    source: str, tmp_path: Path, live_annots: Reader
) -> None:
    placement = annotation(
        "SquareElemType",
        0,
        annotation_id="sq",
        position=Box(30, 40, 80, 50),
        interior_color=BLUE,
        width=100,
    )
    out = run(source, tmp_path, [placement], "live")
    square = live_annots(out, 0)["sq"]
    assert numbers(square.get("/C", pikepdf.Array())) == []
    assert pixmap(out, 0).pixel(31, 41) == (0, 0, 255)


def test_creation_date_in_seconds_or_milliseconds_is_the_same_moment(
    source: str, tmp_path: Path, live_annots: Reader
) -> None:
    placements = [
        annotation(
            "SquareElemType",
            0,
            annotation_id=name,
            position=Box(30, 40, 80, 50),
            creation_date=value,
        )
        for name, value in (("s", 1_700_000_000), ("ms", 1_700_000_000_000))
    ]
    annots = live_annots(run(source, tmp_path, placements, "live"), 0)
    assert str(annots["s"].CreationDate) == str(annots["ms"].CreationDate)


@pytest.mark.parametrize("page", [0, 1, 3], ids=["rot0", "rot90", "rot270"])
def test_live_freetext_keeps_rich_text_and_plain_contents(
    source: str, tmp_path: Path, live_annots: Reader, page: int
) -> None:
    box = Box(40, 120, 220, 40)
    xhtml = (
        '<body xmlns="http://www.w3.org/1999/xhtml"><p>First <b>bold</b></p>'
        "<p>Second</p></body>"
    )
    placement = annotation(
        "FreetextElemType",
        page,
        annotation_id="ft",
        position=box,
        rich_text=xhtml,
        color=RED,
        opacity=0.7,
        creator="Bo",
        default_appearance="/Helv 14 Tf 0 g",
    )
    out = run(source, tmp_path, [placement], "live")
    freetext = live_annots(out, page)["ft"]
    assert freetext.Subtype == pikepdf.Name.FreeText
    assert numbers(freetext.Rect) == pytest.approx(
        corners(pdf_rect(out, page, box)), abs=0.01
    )
    assert str(freetext.RC) == xhtml
    assert str(freetext.Contents) == "First bold\nSecond"
    assert re.search(r"^1 0 0 rg /Helv 14(\.0*)? Tf$", str(freetext.DA))  # colour wins
    assert float(freetext.CA) == pytest.approx(0.7)
    assert int(freetext.get("/Rotate", 0)) == ROTATIONS[page]
    assert "/CL" not in freetext
    assert isinstance(freetext.AP.N, pikepdf.Stream)


def test_live_note_keeps_icon_author_and_contents(
    source: str, tmp_path: Path, live_annots: Reader
) -> None:
    box = Box(200, 40, 24, 24)
    placement = annotation(
        "TextElemType",
        0,
        annotation_id="tx",
        position=box,
        icon="Comment",
        creator="Cy",
        contents="look here",
        color=YELLOW,
        opacity=0.7,
        creation_date=1_700_000_000,
    )
    out = run(source, tmp_path, [placement], "live")
    note = live_annots(out, 0)["tx"]
    assert note.Subtype == pikepdf.Name.Text
    assert note.Name == pikepdf.Name.Comment
    assert str(note.T) == "Cy"
    assert str(note.Contents) == "look here"
    assert numbers(note.C) == [1, 1, 0]
    assert float(note.CA) == pytest.approx(0.7)
    assert numbers(note.Rect) == pytest.approx(corners(pdf_rect(out, 0, box)), abs=0.01)


def test_live_note_on_a_rotated_page_is_anchored_at_its_top_left_corner(
    source: str, tmp_path: Path, live_annots: Reader
) -> None:
    # A note keeps NoRotate: viewers pin the top-left corner of /Rect as seen on
    # the unrotated page, and draw the icon upright from there.
    box = Box(200, 40, 24, 24)
    out = run(
        source,
        tmp_path,
        [annotation("TextElemType", 1, annotation_id="tx", position=box)],
        "live",
    )
    note = live_annots(out, 1)["tx"]
    with pymupdf.open(out) as document:
        page = document[1]
        corner = geometry.display_to_page_point(page, Point(box.x, box.y))
        x0, y0, x1, y1 = numbers(note.Rect)
        top_left = pymupdf.Point(x0, y1) * page.transformation_matrix
    assert (top_left.x, top_left.y) == pytest.approx((corner.x, corner.y), abs=0.01)
    assert int(note.F) & pymupdf.mupdf.PDF_ANNOT_IS_NO_ROTATE


@pytest.mark.parametrize("page", [0, 1], ids=["rot0", "rot90"])
def test_live_line_has_its_ends_and_endings(
    source: str, tmp_path: Path, live_annots: Reader, page: int
) -> None:
    start, end = Point(20, 200), Point(220, 150)
    placement = annotation(
        "LineElemType",
        page,
        annotation_id="ln",
        start=start,
        end=end,
        head="OPEN_ARROW",
        tail="CIRCLE",
        color=GREEN,
        width=3,
    )
    out = run(source, tmp_path, [placement], "live")
    line = live_annots(out, page)["ln"]
    assert line.Subtype == pikepdf.Name.Line
    assert list(line.LE) == [
        pikepdf.Name.Circle,
        pikepdf.Name.OpenArrow,
    ]  # [tail, head]
    with pymupdf.open(out) as document:
        shown = document[page]
        expected = [
            coordinate
            for point in (start, end)
            for coordinate in geometry.display_to_page_point(shown, point)
            * shown.transformation_matrix
        ]
    assert numbers(line.L) == pytest.approx(expected, abs=0.01)
    assert numbers(line.C) == pytest.approx([0, 128 / 255, 0], abs=0.01)
    assert float(line.BS.W) == 3


@pytest.mark.parametrize("wire", sorted(LINE_ENDINGS))
def test_every_line_ending_maps_to_its_pdf_name(
    source: str, tmp_path: Path, live_annots: Reader, wire: str
) -> None:
    pdf_names = {
        "NONE": "/None",
        "SQUARE": "/Square",
        "CIRCLE": "/Circle",
        "DIAMOND": "/Diamond",
        "OPEN_ARROW": "/OpenArrow",
        "CLOSED_ARROW": "/ClosedArrow",
        "BUTT": "/Butt",
        "ROPEN_ARROW": "/ROpenArrow",
        "RCLOSED_ARROW": "/RClosedArrow",
        "SLASH": "/Slash",
    }
    placement = annotation(
        "LineElemType",
        0,
        annotation_id="ln",
        start=Point(20, 200),
        end=Point(220, 200),
        head=wire,
        tail=wire,
    )
    line = live_annots(run(source, tmp_path, [placement], "live"), 0)["ln"]
    assert [str(name) for name in line.LE] == [pdf_names[wire]] * 2


def test_live_output_keeps_the_source_links(source: str, tmp_path: Path) -> None:
    placement = annotation(
        "SquareElemType", 2, annotation_id="sq", position=Box(30, 40, 80, 50)
    )
    subtypes = annotation_subtypes(run(source, tmp_path, [placement], "live"))
    assert subtypes == [["/Link"], ["/Link"], ["/Link", "/Square"], ["/Link"]]
