"""Letter-spaced runs read as the text they spell (engines/pdf/text/spacing):
glyphs drawn one by one with the same gap join up, while gaps that are word
breaks (table columns, words drawn apart) keep their space."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engines.pdf import text
from tests.pdf.text.helpers import LATIN, make_pdf, search, write


def _tracked(
    page: pymupdf.Page,
    origin: tuple[float, float],
    chars: str,
    *,
    size: float,
    gap: float,
) -> None:
    """Each character drawn on its own, `gap` points after the previous one's
    advance: letter spacing, as a word processor writes its 1 pt anchors."""
    x, y = origin
    for char in chars:
        write(page, (x, y), char, size=size)
        x += LATIN.text_length(char, size) + gap


def test_letter_spaced_glyphs_join_while_word_gaps_stay(tmp_path: Path) -> None:
    anchor = "{{s1|signature|85|37}}"

    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        _tracked(page, (72, 100), anchor, size=1, gap=0.5)
        # Digits in table columns, one glyph each, 40 pt apart.
        _tracked(page, (72, 200), "1234", size=11, gap=40)
        # Words drawn apart without a space glyph between them.
        write(page, (72, 300), "hello")
        write(page, (72 + LATIN.text_length("hello ", 12), 300), "world")

    path = make_pdf(tmp_path, build)
    lines = [line.text for line in text.page_lines(path, 0)]
    assert anchor in lines
    # Column gaps are no letter spacing: the digits stay apart.
    assert not any("12" in line for line in lines)
    assert {"1", "2", "3", "4"} <= set(" ".join(lines).split())
    assert "hello world" in lines
    [found] = search(path, "signature|85")
    assert found.text == "signature|85"
    assert len(found.individual_widths) == len(found.text)
