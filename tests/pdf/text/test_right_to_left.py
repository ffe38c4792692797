"""Hebrew and Arabic are found by the spelling a user types, whatever order the
glyphs are drawn in.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf import text
from tests.pdf.text.helpers import (
    ARABIC,
    HEBREW,
    assert_widths_fit,
    make_pdf,
    poppler_words,
    same_glyphs,
    search,
    write,
)


@pytest.mark.parametrize("stream_order", ["visual", "logical"])
def test_hebrew_is_found_by_its_typed_spelling(
    tmp_path: Path, stream_order: str
) -> None:
    # Producers either draw RTL glyphs left to right in reversed (visual) order, or
    # keep logical order and place each glyph to the left of the previous one.
    # Both display the same; the user types the logical spelling for both.
    phrase = "שלום עולם"

    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        if stream_order == "visual":
            start = 200 - HEBREW.text_length(phrase, fontsize=12)
            write(page, (start, 100), phrase, font=HEBREW, right_to_left=True)
            return
        x = 200.0
        for char in phrase:
            x -= HEBREW.text_length(char, fontsize=12)
            write(page, (x, 100), char, font=HEBREW)

    path = make_pdf(tmp_path, build)
    (result,) = search(path, "שלום")
    assert result.right_to_left
    assert result.text == "שלום"
    # שלום is the rightmost word in both drawings, ending at x = 200.
    assert result.position.x + result.position.w == pytest.approx(200, abs=0.1)
    word_width = HEBREW.text_length("שלום", fontsize=12)
    assert result.position.w == pytest.approx(word_width, abs=0.1)
    assert_widths_fit(result)
    assert [line.text for line in text.page_lines(path, 0)] == [phrase]


def test_arabic_presentation_forms_match_base_letters(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (100, 100), "مرحبا بالعالم", font=ARABIC, right_to_left=True)

    path = make_pdf(tmp_path, build)
    line = text.page_lines(path, 0)[0].text
    assert any(0xFE70 <= ord(char) <= 0xFEFF for char in line)  # presentation forms
    (result,) = search(path, "بالعالم")
    assert result.right_to_left
    assert_widths_fit(result)
    strict = search(path, "بالعالم", accent_sensitive=True, case_sensitive=True)
    assert [r.text for r in strict] == [result.text]  # compatibility: always folded


@pytest.mark.corpus
def test_arabic_corpus_words_are_found_in_logical_order(corpus: Path) -> None:
    path = str(corpus / "ArabicCIDTrueType.pdf")
    # Four lines, each "انواع الخطوط العربية" in another font, drawn with
    # presentation forms; the user types the plain letters in logical order, while
    # poppler reports each word in glyph (visual) order.
    poppler = [b for w, b in poppler_words(path) if w == "ﺔﻴﺑﺮﻌﻟا"]
    results = search(path, "العربية")
    assert len(results) == len(poppler) == 4
    for result, expected in zip(results, poppler, strict=True):
        assert result.right_to_left and result.rotation == 0
        assert same_glyphs(result.position, expected)
        assert_widths_fit(result)
    assert len(search(path, "الخطوط العربية")) == 4
