"""Words a PDF places apart without a space glyph between them read as words
(engines/pdf/text/breaks): a right-to-left table cell and the Latin cell after
it, Thai words whose space is drawn in another font or not at all; while text
drawn glyph by glyph at a fixed pitch, and glyphs that touch, stay one word.
poppler's word list (`pdftotext -bbox`) is the independent judge of where the
words are."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pymupdf

from engines.pdf import text
from tests.pdf.text.helpers import (
    ARABIC,
    LATIN,
    make_pdf,
    poppler_words,
    same_glyphs,
    search,
    write,
)

THAI = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_THAI)
JAPANESE = pymupdf.Font("japan")
CITY = "القاهرة"
SIZE = 12


def words(path: str) -> list[list[str]]:
    """The words of each line the engine lists, letters folded (NFKC) from the
    presentation forms Arabic glyphs carry."""
    return [
        unicodedata.normalize("NFKC", line.text).split()
        for line in text.page_lines(path, 0)
    ]


def test_an_arabic_cell_and_the_latin_cell_after_it_are_two_words(
    tmp_path: Path,
) -> None:
    # A spreadsheet row as LibreOffice draws it: each cell placed on its own,
    # the Arabic one right-aligned 2 pt short of the next cell, no space glyph.
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (66, 100), "2")
        width = ARABIC.text_length(CITY, SIZE)
        write(page, (112 - width, 100), CITY, font=ARABIC, right_to_left=True)
        write(page, (114, 100), "London")

    path = make_pdf(tmp_path, build)

    poppler = [word for word, _ in poppler_words(path)]
    assert poppler[0] == "2" and poppler[-1] == "London" and len(poppler) == 3
    assert words(path) == [["2", CITY, "London"]]
    (row,) = search(path, f"{CITY} London")
    assert row.text.endswith(" London")
    (city,) = search(path, CITY)
    (poppler_city,) = [box for word, box in poppler_words(path) if word[0] != "L"][1:]
    assert city.right_to_left and same_glyphs(city.position, poppler_city)


def test_latin_letters_touching_an_arabic_word_stay_one_word(tmp_path: Path) -> None:
    # The Arabic word's first letter lies far from "abc", the word does not.
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (72, 100), "abc")
        start = 72 + LATIN.text_length("abc", SIZE)
        write(page, (start, 100), CITY, font=ARABIC, right_to_left=True)

    path = make_pdf(tmp_path, build)

    assert len(poppler_words(path)) == 1
    assert words(path) == [["abc" + CITY]]


def test_thai_words_drawn_apart_keep_the_space_between_them(tmp_path: Path) -> None:
    first, second = "สวัสดี", "ครับ"
    gap = THAI.text_length(first, SIZE) + LATIN.text_length(" ", SIZE)

    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        # No space glyph at all: MuPDF adds none between Thai glyphs.
        write(page, (72, 100), first, font=THAI)
        write(page, (72 + gap, 100), second, font=THAI)
        # The space drawn first, in another font (LibreOffice's fallback).
        write(page, (72 + THAI.text_length(first, SIZE), 200), " ")
        write(page, (72, 200), first, font=THAI)
        write(page, (72 + gap, 200), second, font=THAI)

    path = make_pdf(tmp_path, build)

    assert [word for word, _ in poppler_words(path)] == [first, second] * 2
    assert [line for line in words(path) if line] == [[first, second]] * 2
    found = search(path, f"{first} {second}")
    assert [result.text for result in found] == [f"{first} {second}"] * 2


def test_japanese_drawn_glyph_by_glyph_at_a_fixed_pitch_stays_one_word(
    tmp_path: Path,
) -> None:
    # MuPDF adds no space between CJK glyphs however far apart: the breaks the
    # gaps would give are letter spacing here, while a wide gap stays a break.
    sentence = "日本語の文書です"

    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        x = 72.0
        for char in sentence:
            write(page, (x, 100), char, font=JAPANESE, size=10)
            x += JAPANESE.text_length(char, 10) + 2
        write(page, (72, 200), "日本語", font=JAPANESE, size=10)
        write(page, (72 + 36, 200), "文書", font=JAPANESE, size=10)

    path = make_pdf(tmp_path, build)

    assert words(path) == [[sentence], ["日本語", "文書"]]
    assert len(search(path, sentence)) == 1
