"""Where a change is and how it is drawn: glyph widths, font, size, displayed-space
position on rotated pages, reading direction.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf.compare import text_diff
from tests.pdf.compare.helpers import fragments, make_pdf, poppler_box


def test_position_text_describes_the_glyphs(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["alpha beta gamma delta"]], fontsize=14)
    right = make_pdf(tmp_path / "r.pdf", [["alpha bravo charlie delta"]], fontsize=14)

    (change,) = text_diff(str(left), str(right))

    right_text = change.right
    assert right_text is not None
    assert right_text.text == "bravo charlie"
    assert len(right_text.individual_widths) == len("bravo charlie")
    assert sum(right_text.individual_widths) == pytest.approx(
        right_text.position.w, abs=0.01
    )
    assert all(w >= 0 for w in right_text.individual_widths)
    assert right_text.font == "Helvetica"
    assert right_text.font_size == pytest.approx(14)
    assert right_text.rotation == 0
    assert right_text.right_to_left is False
    assert fragments(change, "ADD") == ["bravo charlie"]


def test_rotated_page_positions_are_in_displayed_space(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["rotated page with old text"]], rotate=90)
    right = make_pdf(tmp_path / "r.pdf", [["rotated page with new text"]], rotate=90)

    (change,) = text_diff(str(left), str(right))

    assert change.right is not None
    ours, poppler = change.right.position, poppler_box(right, "new")
    # On a page turned by 90° the line runs downwards: compare along y.
    assert ours.y == pytest.approx(poppler.y, abs=1.0)
    assert ours.y + ours.h == pytest.approx(poppler.y + poppler.h, abs=1.0)
    assert ours.x < poppler.x + poppler.w and poppler.x < ours.x + ours.w
    assert change.right.rotation == 90


def test_right_to_left_text_is_flagged(tmp_path: Path) -> None:
    hebrew = pymupdf.Font(script=5)  # MuPDF's built-in Noto Serif Hebrew
    paths = []
    for name, middle in (("l", "beta"), ("r", "\u05e9\u05dc\u05d5\u05dd")):
        with pymupdf.open() as doc:
            page = doc.new_page()
            page.insert_font(fontname="heb", fontbuffer=hebrew.buffer)
            for x, word in ((72, "alpha"), (150, middle), (250, "gamma")):
                font = "heb" if word.isalpha() and not word.isascii() else "helv"
                page.insert_text((x, 100), word, fontname=font, fontsize=12)
            doc.save(tmp_path / f"{name}.pdf")
        paths.append(str(tmp_path / f"{name}.pdf"))

    (change,) = text_diff(*paths)

    assert change.left is not None and change.right is not None
    assert change.left.right_to_left is False
    assert change.right.right_to_left is True
