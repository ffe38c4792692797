"""The evidence's counts per area of what went besides text: images drawn as
XObjects, inline images (which no resource lists), none on a text page (where
the page's one text extraction also answers that it draws no image), and the
vector paths lying inside an area."""

from __future__ import annotations

import pymupdf

from engines.pdf import redact
from engines.pdf.redact.glyphmap import TEXT_ONLY
from engines.pdf.redact.lines import clipped_lines
from engines.pdf.types import Box
from tests.pdf.redact.helpers import LINES, word_box, write_lines

# A 2 × 2 grey inline image drawn at (300, 100)-(400, 200) of a 612 × 792 page
# (PDF user space: y up from the bottom).
_INLINE = (
    b"q 100 0 0 100 300 592 cm\nBI /W 2 /H 2 /CS /G /BPC 8 ID \x80\x80\x80\x80 EI\nQ\n"
)
_ON_IMAGE = Box(320, 120, 40, 40)
_BESIDE = Box(450, 120, 40, 40)
_ON_TEXT = Box(40, 85, 200, 20)


def _images(page: pymupdf.Page, *boxes: Box) -> list[int]:
    done = redact.redact_page(page, [(box, None) for box in boxes])
    return [count.images for count in done.counts]


def _page_with_text(doc: pymupdf.Document) -> pymupdf.Page:
    page = doc.new_page(width=612, height=792)
    write_lines(page, ["alpha secret bravo", "charlie delta"])
    return page


def test_an_image_xobject_counts_under_the_area_it_meets() -> None:
    doc = pymupdf.open()
    page = _page_with_text(doc)
    grey = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 2, 2), False)
    grey.clear_with(128)
    page.insert_image(pymupdf.Rect(300, 100, 400, 200), pixmap=grey)
    assert _images(page, _ON_IMAGE, _BESIDE, _ON_TEXT) == [1, 0, 0]


def test_an_inline_image_counts_though_no_resource_lists_it() -> None:
    doc = pymupdf.open()
    page = _page_with_text(doc)
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, _INLINE)
    contents = [*page.get_contents(), xref]
    doc.xref_set_key(
        page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in contents) + "]"
    )
    page = doc.reload_page(page)
    assert not page.get_images()
    assert _images(page, _ON_IMAGE, _BESIDE, _ON_TEXT) == [1, 0, 0]


def test_a_text_page_counts_no_image_and_still_loses_the_word() -> None:
    doc = pymupdf.open()
    page = _page_with_text(doc)
    done = redact.redact_page(page, [(_ON_TEXT, None)])
    assert [count.images for count in done.counts] == [0]
    assert "secret" in [run.text for run in done.removed]
    assert "secret" not in page.get_text()


def test_a_path_inside_an_area_counts_and_one_outside_does_not() -> None:
    doc = pymupdf.open()
    page = _page_with_text(doc)
    page.draw_rect(pymupdf.Rect(330, 130, 350, 150), color=(1, 0, 0), width=1)
    page.draw_rect(pymupdf.Rect(440, 300, 500, 360), color=(0, 0, 1), width=1)
    done = redact.redact_page(page, [(_ON_IMAGE, None), (_BESIDE, None)])
    assert [count.paths for count in done.counts] == [1, 0]
    strokes = [d["color"] for d in page.get_drawings() if d["type"] == "s"]
    assert strokes == [(0.0, 0.0, 1.0)]  # the one outside stays


def test_a_page_without_paths_under_its_areas_counts_none() -> None:
    doc = pymupdf.open()
    page = _page_with_text(doc)
    page.draw_rect(pymupdf.Rect(440, 300, 500, 360), color=(0, 0, 1), width=1)
    done = redact.redact_page(page, [(_ON_IMAGE, None), (_ON_TEXT, None)])
    assert [count.paths for count in done.counts] == [0, 0]


def test_each_area_counts_the_glyphs_it_removed_and_none_of_its_neighbours() -> None:
    # Areas on three lines, two of them on one line: each area's
    # neighbourhood holds glyphs that stay and glyphs another area removes;
    # each counts its own only.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_lines(page, LINES, leading=20)
    areas = [
        word_box(page, "secret"),
        word_box(page, "alpha"),
        word_box(page, "charlie"),
        word_box(page, "golf"),
    ]
    done = redact.redact_page(page, [(box, None) for box in areas])
    assert [count.glyphs for count in done.counts] == [6, 5, 7, 4]
    assert [count.text for count in done.counts] == [
        "secret", "alpha", "charlie", "golf"
    ]  # fmt: skip
    words = page.get_text("text").split()
    assert words == ["bravo", "delta", "echo", "foxtrot", "hotel"]


def test_glyphs_an_area_touches_but_leaves_are_not_counted() -> None:
    # Lines set close: the word's box reaches into the lines above and below,
    # whose glyphs stay (the edge rule). Only the word's own glyphs went.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_lines(page, LINES, leading=14)
    done = redact.redact_page(page, [(word_box(page, "secret"), None)])
    assert [(count.glyphs, count.text) for count in done.counts] == [(6, "secret")]
    assert "bravo" in page.get_text() and "golf" in page.get_text()


def _overlaps(box: tuple[float, ...], clip: tuple[float, ...]) -> bool:
    return not (
        clip[0] >= box[2] or clip[1] >= box[3] or clip[2] <= box[0] or clip[3] <= box[1]
    )


def test_an_area_read_from_a_shared_reading_sees_what_a_whole_reading_holds() -> None:
    # The evidence reads the page once and takes each area's neighbourhood
    # from that reading: exactly the glyphs of the whole reading whose box
    # overlaps it, and the reading is whole again afterwards.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_lines(page, [*LINES, "india juliett kilo"])
    textpage = page.get_textpage(flags=TEXT_ONLY)
    whole = [
        (c["c"], c["origin"], c["bbox"]) for b in textpage.extractRAWDICT()["blocks"]
        for ln in b.get("lines", ()) for s in ln["spans"] for c in s["chars"]
    ]  # fmt: skip
    for area in [(40.0, 100.0, 130.0, 120.0), (120.0, 80.0, 300.0, 140.0)]:
        expected = [(c, o) for c, o, box in whole if _overlaps(box, area)]
        taken = [
            (c["c"], c["origin"]) for ln in clipped_lines(textpage, area)
            for s in ln["spans"] for c in s["chars"]
        ]  # fmt: skip
        assert taken == expected and 0 < len(taken) < len(whole)
    assert tuple(textpage.rect) == tuple(page.rect)
