"""Burnt and live annotations (documents/pdf/annotate.py).

Burnt output is checked on pixels rendered at 72 dpi, where one pixel is one point
of the displayed page, so displayed-space positions can be looked up directly; live
output is read back with pikepdf, independently of PyMuPDF.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest

from documents.pdf import geometry
from documents.pdf.annotate import LINE_ENDINGS, apply_annotations
from documents.pdf.types import Annotation, Box, EngineError, Placement, Point, Rgb

ROTATIONS = (0, 90, 180, 270)
BLUE, RED, GREEN, YELLOW = (
    Rgb(0, 0, 255),
    Rgb(255, 0, 0),
    Rgb(0, 128, 0),
    Rgb(255, 255, 0),
)
WHITE = (255, 255, 255)
LINK_BOX = pymupdf.Rect(300, 250, 390, 290)  # unrotated page space, out of the way


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Four 400 × 300 pt pages, one per rotation, each with a link."""
    document = pymupdf.open()
    for rotation in ROTATIONS:
        page = document.new_page(width=400, height=300)
        page.insert_link(
            {"kind": pymupdf.LINK_URI, "from": LINK_BOX, "uri": "https://example.org/"}
        )
        page.set_rotation(rotation)
    path = tmp_path_factory.mktemp("annotate") / "source.pdf"
    document.save(path)
    return str(path)


def annotation(kind: str, page: int, **fields: Any) -> Placement:
    return Placement(
        page, Annotation(kind=kind, document_key="doc", page=page, **fields)
    )


def run(source: str, tmp_path: Path, placements: list[Placement], mode: str) -> str:
    dest = str(tmp_path / f"{mode}.pdf")
    apply_annotations(source, dest, placements, mode=mode)  # type: ignore[arg-type]
    return dest


def pixmap(path: str, page: int) -> pymupdf.Pixmap:
    with pymupdf.open(path) as document:
        return document[page].get_pixmap(dpi=72)


def near(pixel: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected, strict=True))


def count(pix: pymupdf.Pixmap, box: Box, wanted: tuple[int, int, int]) -> int:
    return sum(
        near(pix.pixel(x, y), wanted, 40)
        for x in range(int(box.x), int(box.x + box.w))
        for y in range(int(box.y), int(box.y + box.h))
    )


def annotation_subtypes(path: str) -> list[list[str]]:
    with pikepdf.open(path) as pdf:
        return [
            [str(a.Subtype) for a in page.obj.get("/Annots", [])] for page in pdf.pages
        ]


def pdf_rect(path: str, page: int, box: Box) -> pymupdf.Rect:
    with pymupdf.open(path) as document:
        return geometry.display_to_pdf_rect(document[page], box)


Reader = Callable[[str, int], dict[str, pikepdf.Dictionary]]


@pytest.fixture
def live_annots() -> Iterator[Reader]:
    """Reads a page's markup annotations by /NM; the files close after the test."""
    opened: list[pikepdf.Pdf] = []

    def read(path: str, page: int) -> dict[str, Any]:
        pdf = pikepdf.open(path)
        opened.append(pdf)
        skipped = (pikepdf.Name.Link, pikepdf.Name.Popup)
        annots = pdf.pages[page].obj.Annots
        return {str(a.NM): a for a in annots if a.Subtype not in skipped}

    yield read
    for pdf in opened:
        pdf.close()


def numbers(array: Any) -> list[float]:
    return [float(value) for value in array]


def corners(rect: pymupdf.Rect) -> list[float]:
    return [rect.x0, rect.y0, rect.x1, rect.y1]


# --- burnt ---------------------------------------------------------------------


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


# --- live ----------------------------------------------------------------------


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


# --- errors and output ---------------------------------------------------------


def test_unknown_kind_is_an_engine_error(source: str, tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="InkElemType"):
        run(
            source,
            tmp_path,
            [annotation("InkElemType", 0, position=Box(1, 1, 5, 5))],
            "burn",
        )


def test_page_outside_the_document_is_an_engine_error(
    source: str, tmp_path: Path
) -> None:
    with pytest.raises(EngineError, match="page 4"):
        run(
            source,
            tmp_path,
            [annotation("SquareElemType", 4, position=Box(1, 1, 5, 5))],
            "burn",
        )


def test_unknown_line_ending_is_an_engine_error(source: str, tmp_path: Path) -> None:
    placement = annotation(
        "LineElemType", 0, start=Point(1, 1), end=Point(9, 9), head="FEATHER"
    )
    with pytest.raises(EngineError, match="FEATHER"):
        run(source, tmp_path, [placement], "live")


def test_output_is_a_full_rewrite(source: str, tmp_path: Path) -> None:
    placement = annotation("SquareElemType", 0, position=Box(30, 40, 80, 50))
    out = run(source, tmp_path, [placement], "live")
    assert Path(out).read_bytes().count(b"%%EOF") == 1
    check = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
