"""Hostile order and comparison requests: a clear 400, or an order that ends with a
message a user can act on; never a 500 nor the internal-error message.

The first cases were found by tests/test_schemathesis.py; each is kept here as the
smallest request that shows it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.orders.helpers import element, order_body


@pytest.fixture
def doc(uploaded: Callable[..., str], make_pdf: Callable[..., bytes]) -> str:
    return uploaded(make_pdf(2, prefix="hostile order page"))


def post_json(client: Any, path: str, body: object) -> Any:
    return client.post(path, data=body, content_type="application/json")


BAD_IDS = ["", 5, [], {"x": "no id"}, {"id": 5}]


@pytest.mark.parametrize("bad", BAD_IDS, ids=[json.dumps(b) for b in BAD_IDS])
def test_an_invalid_document_id_in_an_order_is_a_400(client: Any, bad: object) -> None:
    body = {
        "format": "pdf",
        "transformationDetails": [{"transformationElements": [{"documentId": bad}]}],
    }
    response = post_json(client, "/transformations", body)
    assert response.status_code == 400, response.content
    field = "transformationDetails[0].transformationElements[0].documentId"
    assert field in response.json()["errors"]


def test_an_invalid_document_id_in_a_comparison_is_a_400(client: Any, doc: str) -> None:
    response = post_json(
        client, "/comparisons", {"leftDocumentId": 5, "rightDocumentId": doc}
    )
    assert response.status_code == 400, response.content
    assert "leftDocumentId" in response.json()["errors"]


def test_a_page_number_past_any_list_is_a_400_naming_the_page(client: Any) -> None:
    response = client.get("/transformations?page=143812992706260272&pageSize=228")
    assert response.status_code == 400, response.content
    assert "page" in response.json()["errors"]


def test_a_page_past_the_last_order_is_an_empty_list(client: Any) -> None:
    response = client.get("/transformations?page=1000000&pageSize=500")
    assert response.status_code == 200, response.content
    assert response.json() == []
    assert response["X-Total-Count"] == "0"


@pytest.mark.parametrize(
    "kind", ["SquareElemType", "RedactElemType", "FreetextElemType"]
)
def test_an_annotation_far_outside_the_page_is_refused_when_validated(
    client: Any, doc: str, kind: str
) -> None:
    far = {"x": 1e308, "y": 1e308, "w": 1e308, "h": 1e308}
    annotation = {"type": kind, "documentId": doc, "page": 0, "position": far}
    body = order_body([element(doc)], annotations=[annotation])
    answer = post_json(client, "/transformations", body)
    assert answer.status_code == 400, answer.content
    assert "annotations.annotations[0].position.x" in answer.json()["errors"]


@pytest.mark.parametrize(
    "kind", ["SquareElemType", "RedactElemType", "FreetextElemType"]
)
def test_an_empty_annotation_area_fails_with_a_message(
    run_order: Callable[[dict[str, Any]], dict[str, Any]], doc: str, kind: str
) -> None:
    empty = {"x": 10, "y": 10, "w": 0, "h": 0}
    annotation = {"type": kind, "documentId": doc, "page": 0, "position": empty}
    order = run_order(order_body([element(doc)], annotations=[annotation]))
    assert order["currentState"] == "FAILED"
    assert "positive width and height" in order["errorMessage"]


def test_an_annotation_reaching_past_the_page_is_clipped_not_failed(
    run_order: Callable[[dict[str, Any]], dict[str, Any]], doc: str
) -> None:
    for kind in ("SquareElemType", "FreetextElemType"):
        annotation = {
            "type": kind,
            "documentId": doc,
            "page": 1,
            "position": {"x": -1e6, "y": 0, "w": 2e6, "h": 5},
        }
        order = run_order(order_body([element(doc)], annotations=[annotation]))
        assert order["currentState"] == "PROCESSED", order["errorMessage"]


def test_a_request_body_over_the_memory_limit_is_a_400_problem(client: Any) -> None:
    element_ = {"documentId": "x" * 100, "documentTitle": "t" * 1000}
    body = {
        "format": "pdf",
        "transformationDetails": [{"transformationElements": [element_] * 3000}],
    }
    response = post_json(client, "/transformations", json.dumps(body))
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize(
    "text", ["NaN", "Infinity", '{"format": "pdf", "transformationDetails": [}']
)
def test_json_that_is_not_json_is_a_400_problem(client: Any, text: str) -> None:
    response = post_json(client, "/transformations", text)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
