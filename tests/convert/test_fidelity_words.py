"""Every word of a table row or a Thai sentence stays a word in the rendition:
an Arabic cell apart from the Latin cell after it, the space between two Thai
words kept. The sources are read back by their own readers (the csv module,
python-docx), the PDF by poppler's word list and by the engine's lines and
search (MuPDF), never by the converter."""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path
from typing import Any

import docx

from engines.convert import Limits, detect, to_pdf
from engines.pdf import text
from engines.pdf.types import SearchQuery
from tests.pdf.text.helpers import poppler_words

# Arabic cells before Latin ones and after them; no lam-alef (one glyph whose
# order poppler reports its own way).
ROWS = [
    ["id", "city", "country"],
    ["1", "القاهرة", "Egypt"],
    ["2", "Paris", "فرنسا"],
    ["3", "مرحبا بالعالم", "London"],
]
THAI = ["สวัสดี ครับ", "ภาษาไทย ง่าย มาก"]


def convert(pool: Any, source: Path) -> str:
    dest = source.with_suffix(".pdf")
    to_pdf(str(source), detect(str(source)), str(dest), Limits(timeout=60), office=pool)
    text.clear_cache()
    return str(dest)


def line_words(pdf: str) -> list[list[str]]:
    """The words of each line the engine lists (presentation forms folded)."""
    return [
        unicodedata.normalize("NFKC", line.text).split()
        for line in text.page_lines(pdf, 0)
    ]


def in_order(words: list[str], page: list[str]) -> bool:
    """Whether `words` follow one another in `page` as whole words."""
    return any(
        page[start : start + len(words)] == words
        for start in range(len(page) - len(words) + 1)
    )


def poppler(pdf: str) -> set[str]:
    """poppler's words, a right-to-left one in the (visual) order it gives."""
    return {unicodedata.normalize("NFKC", word) for word, _ in poppler_words(pdf)}


def as_poppler_reads(word: str) -> str:
    right_to_left = unicodedata.bidirectional(word[0]) in ("R", "AL")
    return word[::-1] if right_to_left else word


def found(pdf: str, phrase: str) -> bool:
    return bool(text.search_page(pdf, 0, SearchQuery(phrase)))


def test_an_arabic_cell_and_the_latin_cell_after_it_stay_apart(
    office_pool: Any, tmp_path: Path
) -> None:
    source = tmp_path / "cities.csv"
    with source.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(ROWS)
    with source.open(newline="", encoding="utf-8") as read:
        rows = list(csv.reader(read))  # the csv module's reading of the source
    assert rows == ROWS

    pdf = convert(office_pool, source)

    page = [word for line in line_words(pdf) for word in line]
    for row in rows:
        cells = " ".join(row).split()
        # The PDF places each cell apart: poppler sees every word...
        assert {as_poppler_reads(word) for word in cells} <= poppler(pdf), row
        # ...and so does the engine, a row's words one after the other.
        assert in_order(cells, page), (row, page)
    # A row reads as the cells' words, across the cell boundaries.
    assert found(pdf, "القاهرة Egypt")
    assert found(pdf, "Paris فرنسا")
    assert found(pdf, "بالعالم London")


def test_the_space_between_two_thai_words_is_kept(
    office_pool: Any, tmp_path: Path
) -> None:
    source = tmp_path / "thai.docx"
    document = docx.Document()
    for paragraph in THAI:
        document.add_paragraph(paragraph)
    document.save(str(source))
    assert [p.text for p in docx.Document(str(source)).paragraphs] == THAI

    pdf = convert(office_pool, source)

    assert {word for line in THAI for word in line.split()} <= poppler(pdf)
    assert [line.split() for line in THAI] == [words for words in line_words(pdf)]
    for line in THAI:
        assert found(pdf, line), line
