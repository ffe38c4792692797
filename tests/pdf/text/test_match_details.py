"""What a match reports: boxes in displayed space (line breaks, rotation, CropBox
offset), font, size, paragraph and the link under it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from tests.pdf.text.helpers import (
    assert_widths_fit,
    make_pdf,
    poppler_box,
    poppler_words_from,
    same_glyphs,
    search,
)


def test_match_across_line_break_gives_one_result_per_line(two_lines_pdf: str) -> None:
    first, second = search(two_lines_pdf, "brown fox")
    assert (first.text, second.text) == ("brown", "fox")
    assert same_glyphs(first.position, poppler_box(two_lines_pdf, "brown"))
    assert same_glyphs(second.position, poppler_box(two_lines_pdf, "fox"))
    assert first.position.y + first.position.h <= second.position.y + 1
    for result in (first, second):
        assert_widths_fit(result)


def test_result_carries_font_size_rotation_and_paragraph(two_lines_pdf: str) -> None:
    (near,) = search(two_lines_pdf, "quick")
    (far,) = search(two_lines_pdf, "separate")
    assert near.font == "NotoSerif-Regular"
    assert near.font_size == pytest.approx(12)
    assert (near.rotation, near.right_to_left, near.link) == (0, False, None)
    assert near.page == 0
    assert near.paragraph_id != far.paragraph_id


def test_font_name_loses_its_subset_prefix(tmp_path: Path, two_lines_pdf: str) -> None:
    document = pymupdf.open(two_lines_pdf)
    document.subset_fonts()
    subset = tmp_path / "subset.pdf"
    document.save(subset)
    (base_font,) = {font[3] for font in pymupdf.open(subset)[0].get_fonts()}
    prefix, name = base_font.split("+", 1)
    assert re.fullmatch("[A-Z]{6}", prefix)
    (result,) = search(str(subset), "quick")
    assert result.font == name


@pytest.mark.parametrize("rotation", [90, 180, 270])
@pytest.mark.parametrize("upright", [True, False], ids=["upright", "sideways"])
def test_rotated_page_boxes_are_in_displayed_space(
    tmp_path: Path, rotation: int, upright: bool
) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page(width=300, height=500)
        # Writing the text turned by the page's /Rotate makes it read upright on
        # screen (as scanners and landscape exports do); otherwise it runs sideways.
        page.insert_text((150, 250), "Gamma delta epsilon", rotate=rotation * upright)
        page.set_rotation(rotation)

    path = make_pdf(tmp_path, build)
    (result,) = search(path, "delta")
    width, height = (500, 300) if rotation in (90, 270) else (300, 500)
    box = result.position
    assert 0 <= box.x and box.x + box.w <= width
    assert 0 <= box.y and box.y + box.h <= height
    assert same_glyphs(box, poppler_box(path, "delta"))
    assert result.rotation == (0 if upright else rotation)
    assert_widths_fit(result)


def test_cropbox_offset_is_removed_from_positions_and_links(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=300, height=500)
    page.insert_text((100, 200), "Gamma delta epsilon")
    word = page.search_for("delta")[0]  # = PDF space flipped: no crop, no rotation
    page.set_cropbox(pymupdf.Rect(20, 30, 280, 470))
    page.set_rotation(270)
    path = tmp_path / "cropped.pdf"
    document.save(path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        # The link is written with pikepdf in PDF space, as a producer would.
        link = pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Link,
            Rect=[word.x0, 500 - word.y1, word.x1, 500 - word.y0],
            A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI="https://example.com/"),
        )
        pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([link]))
        pdf.save(path)

    (result,) = search(str(path), "delta")
    cropped = subprocess.run(
        ["pdftotext", "-cropbox", "-bbox", str(path), "-"],
        capture_output=True,
        text=True,
    ).stdout
    (expected,) = [b for w, b in poppler_words_from(cropped) if w == "delta"]
    assert same_glyphs(result.position, expected)
    assert result.link is not None
    assert same_glyphs(result.link.position, result.position)


@pytest.mark.parametrize("rotation", [0, 90])
def test_link_under_a_match_is_reported(tmp_path: Path, rotation: int) -> None:
    def build(document: pymupdf.Document) -> None:
        document.new_page()
        document.new_page()
        page = document[0]
        page.insert_text((72, 100), "visit example and page two here")
        page.set_rotation(rotation)
        example = page.search_for("example")[0]  # unrotated space, as insert_link
        two = page.search_for("two")[0]
        page.insert_link(
            {"kind": pymupdf.LINK_URI, "from": example, "uri": "https://example.com/"}
        )
        page.insert_link({"kind": pymupdf.LINK_GOTO, "from": two, "page": 1})

    path = make_pdf(tmp_path, build)
    (uri,) = search(path, "example")
    assert uri.link is not None
    assert (uri.link.action, uri.link.destination) == ("URI", "https://example.com/")
    assert same_glyphs(uri.link.position, uri.position)
    (goto,) = search(path, "two")
    assert goto.link is not None
    assert (goto.link.action, goto.link.destination) == ("GOTO", "1")
    (plain,) = search(path, "visit")
    assert plain.link is None
