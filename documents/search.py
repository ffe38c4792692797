"""Search over a range of pages (GET /documents/<id>/search and /pages): the page
search of `documents.pages` (same matching rules, same regex time limit) page
after page, within a time budget and a result cap, so that a 2,000-page document
answers in bounded time: what was not searched is told by `last_page`, and the
client goes on from `last_page + 1` (the original's lastPageSearched)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from documents.models import Document
from documents.renditions.waits import wait_text
from documents.storage import pdf_path
from engines.pdf import text as text_engine
from engines.pdf.types import PositionText, SearchQuery
from transformsvc.conf import service
from transformsvc.problems import InvalidInput

COMPLETED, PARTIAL = "COMPLETED", "PARTIAL"


@dataclass
class RangeSearch:
    """Matches by 0-based page, the last page searched, and whether every page
    of the range was searched (COMPLETED) or the budget ran out (PARTIAL)."""

    results: dict[int, list[PositionText]] = field(default_factory=dict)
    last_page: int = -1
    status: str = COMPLETED


def page_range(doc: Document, first: int, last: int) -> tuple[int, int]:
    """`first`..`last` (0-based, inclusive; -1 = the last page) checked against
    the document."""
    count = doc.page_count or 0
    if not 0 <= first < count:
        raise InvalidInput(
            f"fromPage {first} (counted from 0) is not a page of document "
            f"{doc.id!r} ({count} pages)",
            errors={"fromPage": ["out of range"]},
        )
    end = count - 1 if last == -1 else min(last, count - 1)
    if end < first:
        raise InvalidInput(
            f"toPage {last} is before fromPage {first}",
            errors={"toPage": ["before fromPage"]},
        )
    return first, end


def document_search(
    doc: Document, query: SearchQuery, *, first: int = 0, last: int = -1
) -> RangeSearch:
    """Matches of `query` on pages `first`..`last`; at least one page is searched
    whatever the budget, so a client going on page after page always advances."""
    doc = wait_text(doc)
    first, last = page_range(doc, first, last)
    budget = service().search_budget
    most = service().search_max_results
    timeout = service().regex_timeout
    deadline = time.monotonic() + budget
    found = RangeSearch()
    total = 0
    with pdf_path(doc) as path:
        for page in range(first, last + 1):
            if page > first and (time.monotonic() > deadline or total >= most):
                found.status = PARTIAL
                break
            matches = _search(str(path), page, query, timeout)
            if matches:
                found.results[page] = matches
                total += len(matches)
            found.last_page = page
    return found


def _search(
    path: str, page: int, query: SearchQuery, timeout: float
) -> list[PositionText]:
    """One page, with the page search's refusals (bad or slow pattern) as 400s."""
    try:
        return text_engine.search_page(path, page, query, regex_timeout=timeout)
    except text_engine.SearchError as exc:
        raise InvalidInput(str(exc), errors={"searchText": [str(exc)]}) from exc
