"""Search of a page's text (decisions §5) and the listing of its lines.

Page indexes count from 0; positions are in displayed-page space (points).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator

import regex

from engines.errors import SearchError
from engines.pdf.text.cache import page_text
from engines.pdf.text.extract import PageText
from engines.pdf.text.folding import Fold, Folded, fold_pattern, fold_text
from engines.pdf.text.results import (
    position_text,
    results_for_span,
    single_spaced,
    trim_whitespace,
)
from engines.pdf.types import PositionText, SearchQuery


def search_page(
    path: str,
    page_index: int,
    query: SearchQuery,
    *,
    regex_timeout: float = 1.0,
    max_pattern_length: int = 1000,
) -> list[PositionText]:
    """Matches of `query` on the 0-based page `page_index`, one result per line touched.

    Matching follows decisions §5: page text in reading order, lines joined by one
    space, whitespace runs matched as one space; compatibility forms always folded
    (ligatures, Arabic presentation forms, no-break space), full Unicode case folding
    unless case sensitive, combining marks removed after NFKD unless accent
    sensitive. A regex is Python `regex` syntax, limited to `max_pattern_length`
    characters and `regex_timeout` seconds; empty matches are skipped.

    Each result's `text` is the original text of the match on that line, `position`
    its exact box in displayed space (points) and `individual_widths` one extent per
    character along the line's direction: they sum to `position.w` on horizontal
    lines (rotation 0/180) and to `position.h` on vertical ones (90/270).
    Right-to-left runs come out of MuPDF in logical order (it orders them by glyph
    position, whatever order the PDF draws them in), so the spelling a user types
    matches; `right_to_left` is true when the text holds Hebrew/Arabic letters.
    Raises `SearchError` for a bad or too slow pattern, `PageOutOfRange`,
    `UnsupportedDocument` when the file cannot be opened.
    """
    if len(query.text) > max_pattern_length:
        raise SearchError(f"search text is longer than {max_pattern_length} characters")
    page = page_text(path, page_index)
    spans: Iterable[tuple[int, int]]
    if query.regex:
        spans = _regex_spans(page, query, regex_timeout)
    else:
        spans = _plain_spans(page, query)
    results: list[PositionText] = []
    for start, end in spans:
        results.extend(results_for_span(page, start, end))
    if any(line.alternate for line in page.lines):
        # A line read two ways gives the same match twice: the page's own
        # reading comes first (alternate lines follow the page's lines).
        unique = {r.position: r for r in reversed(results)}
        results = [r for r in results if unique.get(r.position) is r]
    return results


def page_lines(path: str, page_index: int) -> list[PositionText]:
    """Every text line of the 0-based page, in reading order, for text selection.

    Geometry as in `search_page`; each line as a reader sees it: leading and
    trailing spaces left out, the words joined by single spaces (a run of
    spaces or tabs is one space whose width covers the run), blank lines
    skipped. `link` is a link lying under any character of the line.
    """
    page = page_text(path, page_index)
    results: list[PositionText] = []
    for line in page.lines:
        if line.alternate:
            continue
        first, last = trim_whitespace(line.text, 0, len(line.text))
        if first < last:
            results.append(single_spaced(position_text(page, line, first, last)))
    return results


def _plain_spans(page: PageText, query: SearchQuery) -> Iterator[tuple[int, int]]:
    fold = Fold.for_plain(query)
    needle = fold_text(query.text, fold).text
    if not needle:
        return
    folded = page.folded(fold)
    start = folded.text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if _splits_letter(folded.text, start, end):
            start = folded.text.find(needle, start + 1)
            continue
        yield _original_span(page, folded, start, end)
        start = folded.text.find(needle, end)


def _regex_spans(
    page: PageText, query: SearchQuery, timeout: float
) -> list[tuple[int, int]]:
    fold = Fold.for_regex(query)
    flags = 0 if query.case_sensitive else regex.IGNORECASE | regex.FULLCASE
    try:
        pattern = regex.compile(fold_pattern(query.text, fold), flags)
    except regex.error as exc:
        raise SearchError(f"invalid regular expression: {exc}") from exc
    folded = page.folded(fold)
    spans: list[tuple[int, int]] = []
    try:
        for match in pattern.finditer(folded.text, timeout=timeout, concurrent=True):
            start, end = match.span()
            if end > start and not _splits_letter(folded.text, start, end):
                spans.append(_original_span(page, folded, start, end))
    except TimeoutError as exc:
        raise SearchError(
            f"regular expression took longer than {timeout:g} s; simplify it"
        ) from exc
    return spans


def _splits_letter(folded: str, start: int, end: int) -> bool:
    """Whether [start, end) cuts a letter from its accents (`cafe` in `café` when
    accents matter). Without accent sensitivity no marks are left to cut."""
    return unicodedata.category(folded[start]) == "Mn" or (
        end < len(folded) and unicodedata.category(folded[end]) == "Mn"
    )


def _original_span(
    page: PageText, folded: Folded, start: int, end: int
) -> tuple[int, int]:
    """Folded [start, end) → original [start, end) in the page text."""
    first = folded.origin[start]
    stop = folded.origin[end - 1] + 1
    # Combining marks folded away after the last letter belong to it (cafe → café).
    while (
        stop < len(page.text)
        and not folded.emits[stop]
        and not page.text[stop].isspace()
    ):
        stop += 1
    return first, stop
