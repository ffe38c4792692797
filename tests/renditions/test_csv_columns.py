"""A CSV with a cell longer than its column and a column of very long text,
uploaded as a user would: search finds every word of every cell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import doc_url
from tests.convert.test_fidelity_csv import csv_bytes, source_words


def test_search_finds_every_word_of_a_long_csv_cell(
    converted: Callable[..., str], client: Any
) -> None:
    data = csv_bytes()

    doc_id = converted(data, documentTitle="notes.csv")

    layout = client.get(doc_url(doc_id, "/layout")).json()
    assert layout["mimeType"] == "text/csv"
    missed = []
    for word in source_words(data):
        answer = client.get(doc_url(doc_id, "/search", searchText=word)).json()
        if sum(len(hits) for hits in answer["pagesResults"].values()) != 1:
            missed.append(word)
    assert not missed, missed
