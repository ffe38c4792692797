"""Search over a document's pages: GET /documents/<id>/pages and /search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pymupdf
import pytest

from tests.conftest import doc_url, make_pdf_bytes


@pytest.fixture
def report(uploaded: Callable[..., str]) -> str:
    return uploaded(
        make_pdf_bytes(
            ["Résumé of the café", "nothing here", "CAFE opens at 9", "café again"]
        )
    )


def test_pages_lists_the_pages_that_match(client: Any, report: str) -> None:
    response = client.get(doc_url(report, "/pages", searchText="cafe"))
    assert response.status_code == 200
    body = response.json()
    assert body["uuid"] == {"id": report} and body["searchText"] == "cafe"
    assert body["pageList"] == [0, 2, 3]
    assert body["searchStatus"] == "COMPLETED" and body["lastPageSearched"] == 3


def test_pages_follows_the_page_search_rules(client: Any, report: str) -> None:
    def pages(**query: Any) -> list[int]:
        return client.get(doc_url(report, "/pages", **query)).json()["pageList"]

    assert pages(searchText="café", accentSensitive="true") == [0, 3]
    assert pages(searchText="CAFE", caseSensitive="true") == [2]
    assert pages(searchText=r"opens at \d", regex="true") == [2]
    assert pages(searchText="absent") == []


def test_pages_does_not_swallow_the_page_routes(client: Any, report: str) -> None:
    text = client.get(doc_url(report, "/pages/2/text", searchText="opens"))
    assert text.status_code == 200
    assert text.json()["searchResults"][0]["positionText"]["text"] == "opens"
    lines = client.get(doc_url(report, "/pages/2/text/position")).json()
    assert lines["pageNumber"] == 2


def test_pages_of_an_id_with_slashes(client: Any, uploaded: Callable[..., str]) -> None:
    doc_id = uploaded(make_pdf_bytes(["a/b"]), documentId="b64_ab/pages/c+d==")
    for url in (
        "/documents/b64_ab/pages/c+d==/pages?searchText=a",
        doc_url(doc_id, "/pages", searchText="a"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.json()["uuid"] == {"id": doc_id}
        assert response.json()["pageList"] == [0]


def test_search_gives_the_matches_of_a_page_range(client: Any, report: str) -> None:
    response = client.get(
        doc_url(report, "/search", searchText="café", fromPage=1, toPage=3)
    )
    body = response.json()
    assert body["documentId"] == {"id": report} and body["searchText"] == "café"
    assert body["searchStatus"] == "COMPLETED" and body["lastPageSearched"] == 3
    assert sorted(body["pagesResults"]) == ["2", "3"]
    [match] = body["pagesResults"]["3"]
    assert match["positionText"]["text"] == "café"
    assert match["positionText"]["pageNumber"] == 3
    assert match["textRangeList"] == [{"firstCharacter": 0, "lastCharacter": 3}]
    # The same box as the page search gives.
    page = client.get(doc_url(report, "/pages/3/text", searchText="café")).json()
    assert page["searchResults"] == body["pagesResults"]["3"]


def test_search_to_the_last_page_by_default(client: Any, report: str) -> None:
    body = client.get(doc_url(report, "/search", searchText="café")).json()
    assert sorted(body["pagesResults"]) == ["0", "2", "3"]
    body = client.get(doc_url(report, "/search", searchText="x", toPage=-1)).json()
    assert body["lastPageSearched"] == 3


@pytest.mark.parametrize(
    "query, field",
    [
        ({"searchText": "a", "fromPage": 4}, "fromPage"),
        ({"searchText": "a", "fromPage": 2, "toPage": 1}, "toPage"),
        ({"searchText": "a", "fromPage": -1}, "fromPage"),
        ({"fromPage": 0}, "searchText"),
        ({"searchText": "(a", "regex": "true"}, "searchText"),
    ],
)
def test_bad_ranges_and_patterns_are_400(
    client: Any, report: str, query: dict[str, Any], field: str
) -> None:
    response = client.get(doc_url(report, "/search", **query))
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"]


def test_a_catastrophic_regex_is_refused_not_run_for_every_page(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc = pymupdf.open()
    for _ in range(5):
        doc.new_page(width=4000).insert_text((20, 50), "a" * 1500 + "b", fontsize=4)
    doc_id = uploaded(doc.tobytes())
    started = time.monotonic()
    response = client.get(doc_url(doc_id, "/pages", searchText="(a+)+$", regex="true"))
    assert response.status_code == 400
    assert time.monotonic() - started < 5


@pytest.fixture(scope="module")
def long_pdf() -> bytes:
    """2,000 pages; every 100th says "needle"."""
    doc = pymupdf.open()
    for n in range(2000):
        page = doc.new_page(width=300, height=200)
        page.insert_text((20, 50), "needle" if n % 100 == 0 else f"page {n}")
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def test_a_2000_page_search_answers_in_budgeted_steps_that_add_up(
    client: Any, uploaded: Callable[..., str], long_pdf: bytes, settings: Any
) -> None:
    doc_id = uploaded(long_pdf)
    settings.SERVICE = replace(settings.SERVICE, search_budget=0.05)
    found: dict[str, Any] = {}
    start, calls = 0, 0
    while True:
        body = client.get(
            doc_url(doc_id, "/search", searchText="needle", fromPage=start)
        ).json()
        calls += 1
        found.update(body["pagesResults"])
        assert body["lastPageSearched"] >= start
        if body["searchStatus"] == "COMPLETED":
            assert body["lastPageSearched"] == 1999
            break
        assert body["searchStatus"] == "PARTIAL"
        start = body["lastPageSearched"] + 1
    assert calls > 1, "the budget cut the search into steps"
    assert sorted(int(p) for p in found) == list(range(0, 2000, 100))


def test_the_result_cap_cuts_a_search_too(
    client: Any, uploaded: Callable[..., str], report: str, settings: Any
) -> None:
    settings.SERVICE = replace(settings.SERVICE, search_max_results=1)
    body = client.get(doc_url(report, "/search", searchText="café")).json()
    assert body["searchStatus"] == "PARTIAL"
    assert list(body["pagesResults"]) == ["0"] and body["lastPageSearched"] == 0
