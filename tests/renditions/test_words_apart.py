"""A CSV's Arabic cell and a docx's Thai words, uploaded as a user would: each
word the source holds (the csv module's cells, the text itself) is a word of
the page's text positions and is found by search, alone and with its
neighbour across the cell or word boundary."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable
from typing import Any

import docx

from tests.conftest import doc_url

ROWS = [["id", "city", "country"], ["1", "القاهرة", "Egypt"], ["2", "Paris", "فرنسا"]]
THAI = "สวัสดี ครับ"


def page_words(client: Any, doc_id: str) -> list[str]:
    answer = client.get(doc_url(doc_id, "/pages/0/text/position")).json()
    return [
        word
        for line in answer["positionTextList"]
        for word in unicodedata.normalize("NFKC", line["text"]).split()
    ]


def hits(client: Any, doc_id: str, phrase: str) -> int:
    answer = client.get(doc_url(doc_id, "/search", searchText=phrase)).json()
    return sum(len(results) for results in answer["pagesResults"].values())


def test_a_csv_row_with_an_arabic_cell_reads_word_by_word(
    converted: Callable[..., str], client: Any
) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(ROWS)
    cells = [cell for row in csv.reader(io.StringIO(buffer.getvalue())) for cell in row]

    doc_id = converted(buffer.getvalue().encode(), documentTitle="cities.csv")

    words = page_words(client, doc_id)
    assert set(cells) <= set(words), words
    for cell in cells:
        assert hits(client, doc_id, cell) >= 1, cell
    assert hits(client, doc_id, "القاهرة Egypt") == 1
    assert hits(client, doc_id, "Paris فرنسا") == 1


def test_two_thai_words_of_a_word_file_keep_their_space(
    converted: Callable[..., str], client: Any
) -> None:
    document = docx.Document()
    document.add_paragraph(THAI)
    buffer = io.BytesIO()
    document.save(buffer)

    doc_id = converted(buffer.getvalue())

    assert page_words(client, doc_id) == THAI.split()
    assert hits(client, doc_id, THAI) == 1
    for word in THAI.split():
        assert hits(client, doc_id, word) == 1
