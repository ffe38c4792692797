"""Searches that cannot match, or must not run: empty regex matches, invalid or
catastrophic patterns, overlong patterns, pages out of range, pages without text.
"""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf
import pytest

from engines.pdf import text
from engines.pdf.text import PageOutOfRange, SearchError
from engines.pdf.types import SearchQuery
from tests.pdf.text.helpers import make_pdf, search, write


def test_zero_length_regex_matches_are_skipped(two_lines_pdf: str) -> None:
    assert search(two_lines_pdf, "^", regex=True) == []
    assert [r.text for r in search(two_lines_pdf, "x*", regex=True)] == ["x"]
    assert [r.text for r in search(two_lines_pdf, r"\bfox\b|(?=q)", regex=True)] == [
        "fox"
    ]


def test_invalid_regex_raises_search_error(two_lines_pdf: str) -> None:
    with pytest.raises(SearchError, match="invalid regular expression"):
        search(two_lines_pdf, "(ab", regex=True)


def test_catastrophic_regex_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        # regex's own safeguards make (a+)+$ polynomial: it needs a long line.
        page = document.new_page(width=3000, height=100)
        write(page, (10, 50), "a" * 1500 + "b", size=3)

    path = make_pdf(tmp_path, build)
    search(path, "warm the cache")
    # CPU time, not the clock: the limit is 1 s of the clock, but on a loaded
    # machine the clock also counts other programs' turns. Unbounded, this
    # search takes about 7 s of CPU.
    started = time.process_time()
    with pytest.raises(SearchError, match="longer than 1 s"):
        search(path, "(a+)+$", regex=True)
    assert time.process_time() - started < 1.5


def test_overlong_pattern_is_refused(two_lines_pdf: str) -> None:
    with pytest.raises(SearchError, match="longer than 10 characters"):
        text.search_page(
            two_lines_pdf, 0, SearchQuery("x" * 11, regex=True), max_pattern_length=10
        )


def test_page_out_of_range_raises(two_lines_pdf: str) -> None:
    for page in (-1, 1):
        with pytest.raises(PageOutOfRange, match="has 1 pages"):
            search(two_lines_pdf, "fox", page=page)


def test_image_only_page_has_no_results(tmp_path: Path) -> None:
    path = make_pdf(tmp_path, lambda document: document.new_page())
    assert search(path, "anything") == []
    assert text.page_lines(path, 0) == []
