"""Comparisons over HTTP: /difference and comparison orders with a highlighted target."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.conftest import doc_url
from tests.orders.helpers import file_path

ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$")


def pdf_of(*pages: list[str]) -> bytes:
    """One PDF page per list of lines."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=595, height=842)
        for n, line in enumerate(lines):
            page.insert_text((72, 100 + 20 * n), line, fontsize=12)
    return doc.tobytes()


def difference(client: Any, left: str, right: str) -> Any:
    return client.get("/difference", {"leftDocumentId": left, "rightDocumentId": right})


def test_one_changed_word_is_a_modify_with_both_positions(
    client: Any, uploaded: Callable[..., str]
) -> None:
    left = uploaded(pdf_of(["the quick brown fox jumps"]))
    right = uploaded(pdf_of(["the quick red fox jumps"]))
    body = difference(client, left, right).json()
    assert body["leftDocumentId"] == left and body["rightDocumentId"] == right
    (change,) = body["textChanges"]
    assert change["changeType"] == "MODIFY"
    assert [(f["type"], f["text"]) for f in change["fragments"]] == [
        ("DELETE", "brown"),
        ("ADD", "red"),
    ]
    assert change["left"]["text"] == "brown" and change["right"]["text"] == "red"
    assert change["left"]["pageNumber"] == 0
    assert 72 < change["left"]["position"]["x"] < 200


def test_inserted_and_deleted_text(client: Any, uploaded: Callable[..., str]) -> None:
    left = uploaded(pdf_of(["alpha beta gamma", "delta epsilon zeta"]))
    right = uploaded(pdf_of(["alpha NEW WORDS beta gamma", "epsilon zeta"]))
    changes = difference(client, left, right).json()["textChanges"]
    kinds = [(c["changeType"], [f["text"] for f in c["fragments"]]) for c in changes]
    assert ("ADD", ["NEW", "WORDS"]) in kinds or ("ADD", ["NEW WORDS"]) in kinds, kinds
    deleted = [c for c in changes if c["changeType"] == "DELETE"]
    assert deleted and "delta" in " ".join(f["text"] for f in deleted[0]["fragments"])
    assert deleted[0]["right"] is None


def test_identical_documents_have_no_changes(
    client: Any, uploaded: Callable[..., str]
) -> None:
    data = pdf_of(["same text here"], ["and here"])
    assert (
        difference(client, uploaded(data), uploaded(data)).json()["textChanges"] == []
    )


def test_difference_needs_both_documents(
    client: Any, uploaded: Callable[..., str]
) -> None:
    left = uploaded(pdf_of(["x"]))
    unknown = difference(client, left, "missing")
    assert unknown.status_code == 404  # as the original: "document not found"
    assert "missing" in unknown.json()["detail"]
    assert client.get("/difference", {"leftDocumentId": left}).status_code == 400


@pytest.mark.corpus
def test_corpus_pair_a_differs_only_by_hello_on_the_first_page(
    client: Any, corpus: Path, uploaded: Callable[..., str]
) -> None:
    left = uploaded((corpus / "tracemonkey.pdf").read_bytes())
    right = uploaded((corpus / "tracemonkey-annotated-hello.pdf").read_bytes())
    changes = difference(client, left, right).json()["textChanges"]
    assert changes, "the annotation's 'Hello' is visible text"
    fragments = [f for c in changes for f in c["fragments"]]
    assert {f["pageNumber"] for f in fragments} == {0}
    assert any("Hello" in f["text"] for f in fragments)


@pytest.fixture
def run_comparison(
    client: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., dict[str, Any]]:
    def _run(body: dict[str, Any]) -> dict[str, Any]:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/comparisons", data=body, content_type="application/json"
            )
        assert response.status_code == 200, response.content
        order_id = response.json()["comparisonOrderId"]["id"]
        assert response["Location"] == f"/comparisons/{order_id}"
        return client.get(f"/comparisons/{order_id}").json()

    return _run


def test_comparison_order_paints_differences_in_the_highlight_colour(
    run_comparison: Callable[..., dict[str, Any]], uploaded: Callable[..., str]
) -> None:
    left = uploaded(pdf_of(["the quick brown fox"], ["page two"]))
    right = uploaded(pdf_of(["the quick brown cat"], ["page two"], ["extra page"]))
    order = run_comparison(
        {
            "leftDocumentId": left,
            "rightDocumentId": {"id": right},
            "fuzz": "3",
            "highlightColor": "#00ff00",
        }
    )
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    assert order["errorMessage"] is None
    assert order["fuzz"] == 3 and order["highlightColor"] == "#00ff00"
    assert order["lowlightColor"] == ""
    assert order["leftDocumentId"] == left and order["rightDocumentId"] == right
    assert ISO_MS.match(order["queuedDate"]) and ISO_MS.match(order["processedDate"])
    assert isinstance(order["queuedTime"], int) and isinstance(
        order["processingTime"], int
    )
    target = pymupdf.open(file_path(order["targetDocumentId"]))
    assert target.page_count == 3
    green = [_count_colour(target[n], (0, 255, 0)) for n in range(3)]
    assert green[0] > 20, "the changed word is highlighted"
    assert green[1] == 0, "identical pages have no highlight"
    assert green[2] > 20, "a page only on one side is highlighted"


def _count_colour(page: pymupdf.Page, rgb: tuple[int, int, int]) -> int:
    pix = page.get_pixmap(dpi=72)
    samples = pix.samples
    n = pix.n
    return sum(
        1
        for i in range(0, len(samples), n)
        if abs(samples[i] - rgb[0]) < 30
        and abs(samples[i + 1] - rgb[1]) < 30
        and abs(samples[i + 2] - rgb[2]) < 30
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"leftDocumentId": "missing", "rightDocumentId": "missing"}, "leftDocumentId"),
        ({"fuzz": 150}, "fuzz"),
        ({"highlightColor": "red"}, "highlightColor"),
    ],
)
def test_invalid_comparison_requests_are_400(
    client: Any, uploaded: Callable[..., str], body: dict[str, Any], field: str
) -> None:
    doc = uploaded(pdf_of(["x"]))
    request = {"leftDocumentId": doc, "rightDocumentId": doc, **body}
    response = client.post(
        "/comparisons", data=request, content_type="application/json"
    )
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_comparison_delete_and_unknown(
    client: Any,
    run_comparison: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
) -> None:
    doc = uploaded(pdf_of(["x"]))
    order = run_comparison({"leftDocumentId": doc, "rightDocumentId": doc})
    order_id = order["comparisonOrderId"]["id"]
    assert client.delete(f"/comparisons/{order_id}").status_code == 200
    assert client.get(f"/comparisons/{order_id}").status_code == 404
    assert client.get(doc_url(order["targetDocumentId"])).status_code == 200


def test_lowlight_colour_null_as_a_string_means_no_lowlight(
    run_comparison: Callable[..., dict[str, Any]], uploaded: Callable[..., str]
) -> None:
    left = uploaded(pdf_of(["the quick brown fox"]))
    right = uploaded(pdf_of(["the quick brown cat"]))
    plain = run_comparison({"leftDocumentId": left, "rightDocumentId": right})
    null = run_comparison(
        {
            "leftDocumentId": left,
            "rightDocumentId": right,
            "lowlightColor": "null",
            "highlightColor": "null",
        }
    )
    assert null["currentState"] == "PROCESSED", null["errorMessage"]
    assert null["lowlightColor"] == "" and null["highlightColor"] == "FF0000"
    pixels = [
        pymupdf.open(file_path(order["targetDocumentId"]))[0].get_pixmap().samples
        for order in (plain, null)
    ]
    assert pixels[0] == pixels[1]
