"""A page's lines read one by one (`engines.pdf.redact.lines`) are the lines a
reading of the whole page gives, character for character: on every page of
the shared corpus, on lines drawn twice in one place, and on lines another
line's box overlaps."""

from __future__ import annotations

from typing import Any

import pymupdf
import pytest

from engines.pdf.redact import lines as lines_module
from engines.pdf.redact.glyphmap import TEXT_ONLY
from engines.pdf.redact.lines import TextLines
from tests import corpus

_PAGES_PER_FILE = 6


def _whole(textpage: pymupdf.TextPage) -> list[dict[str, Any]]:
    blocks = textpage.extractRAWDICT()["blocks"]
    return [line for block in blocks for line in block.get("lines", ())]


def _one_by_one(textpage: pymupdf.TextPage, count: int) -> list[dict[str, Any]]:
    """Every line read alone (`alone` makes the whole page's reading fail)."""
    reader = TextLines(textpage)
    return [reader.raw(number) for number in range(count)]


@pytest.fixture
def alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: TextLines) -> None:
        raise AssertionError("a line was not read alone")

    monkeypatch.setattr(lines_module, "_ONE_BY_ONE", 10**9)
    monkeypatch.setattr(TextLines, "_read_all", refused)


@pytest.mark.skipif(not corpus.available(), reason=corpus.ABSENT_REASON)
@pytest.mark.usefixtures("alone")
def test_every_corpus_line_read_alone_is_the_line_of_the_whole_reading() -> None:
    checked = 0
    for path in sorted(corpus.CORPUS.glob("*.pdf")):
        with pymupdf.open(path) as document:
            if document.needs_pass and not document.authenticate(""):
                continue
            for number in range(min(document.page_count, _PAGES_PER_FILE)):
                textpage = document[number].get_textpage(flags=TEXT_ONLY)
                whole = _whole(textpage)
                assert _one_by_one(textpage, len(whole)) == whole, (path.name, number)
                checked += len(whole)
    assert checked > 2000


def _page(document: pymupdf.Document) -> pymupdf.Page:
    page = document.new_page(width=400, height=300)
    page.insert_text((40, 60), "drawn twice in one place", fontsize=12)
    page.insert_text((40, 60), "drawn twice in one place", fontsize=12)
    page.insert_text((40, 100), "a small line under", fontsize=9)
    page.insert_text((60, 110), "BIG", fontsize=40)  # its box overlaps the line above
    page.insert_text((40, 200), "alone", fontsize=12)
    return page


@pytest.mark.usefixtures("alone")
def test_lines_in_one_place_and_overlapping_lines_are_read_whole() -> None:
    with pymupdf.open() as document:
        textpage = _page(document).get_textpage(flags=TEXT_ONLY)
        whole = _whole(textpage)
        texts = [
            "".join(c["c"] for s in ln["spans"] for c in s["chars"]) for ln in whole
        ]
        assert texts.count("drawn twice in one place") == 2 and "BIG" in texts
        assert _one_by_one(textpage, len(whole)) == whole
        reader = TextLines(textpage)
        assert [reader.raw(n) for n in reversed(range(len(whole)))] == whole[::-1]
        assert reader._reads == len(whole) - 1  # the two in one place at once


def _read_in_order(
    monkeypatch: pytest.MonkeyPatch, setting: str, value: float
) -> tuple[TextLines, list[dict[str, Any]], list[dict[str, Any]]]:
    """Every line of `_page` read in order with `lines.<setting>` at `value`:
    the reader, what it read, and the whole reading."""
    with pymupdf.open() as document:
        textpage = _page(document).get_textpage(flags=TEXT_ONLY)
        whole = _whole(textpage)
        monkeypatch.setattr(lines_module, setting, value)
        reader = TextLines(textpage)
        return reader, [reader.raw(n) for n in range(len(whole))], whole


def test_past_the_lines_read_alone_the_page_is_read_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader, read, whole = _read_in_order(monkeypatch, "_ONE_BY_ONE", 1)
    assert read == whole
    assert reader._reads == 1  # the rest came from one reading of the page


def test_a_line_read_with_a_clip_too_tight_is_not_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Read through a box smaller than the line's, a line comes back cut: its
    # box or its count of characters differ, and the whole page is read.
    reader, read, whole = _read_in_order(monkeypatch, "_GROW", -20.0)
    assert read == whole
    assert reader._reads == 1  # the first line's reading was refused
