"""Objects nested 100,000 deep: refused when they hide the page, otherwise every
endpoint and order on the page answers clearly, never with a server error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import doc_url
from tests.documents.hostile.build import (
    nested_arrays_in_content,
    nested_arrays_in_page,
    nested_dicts_in_page,
)
from tests.documents.hostile.helpers import assert_problem, assert_usable, deadline
from tests.orders.helpers import element, order_body, pdftotext_pages


@pytest.mark.parametrize("build", [nested_arrays_in_page, nested_dicts_in_page])
def test_objects_nested_100k_deep_in_the_page_are_refused_as_damaged(
    upload: Callable[..., Any], build: Callable[[], bytes]
) -> None:
    # MuPDF gives up on the page object (stack limit) and makes a blank Letter
    # page of it; qpdf finds no page at all.
    with deadline(10):
        assert_problem(upload(build()), 415, "damaged")


def test_arrays_nested_100k_deep_in_a_content_stream_leave_the_page_usable(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    # The page is copied as it is: qpdf --check warns about its content stream.
    data = nested_arrays_in_content()
    path = assert_usable(upload, run_order, data, pages=1, check=False)
    assert pdftotext_pages(path) == ["nested page 1"]


@pytest.mark.parametrize(
    "suffix",
    [
        "/pages/0/text?searchText=nested",
        "/pages/0/text/position",
        "/pages/0/image?width=100",
        "/layout",
    ],
    ids=["search", "lines", "image", "layout"],
)
def test_reading_a_page_nested_too_deep_is_not_a_server_error(
    uploaded: Callable[..., str], client: Any, suffix: str
) -> None:
    doc = uploaded(nested_arrays_in_content())
    client.raise_request_exception = False  # see the answer a client would get
    with deadline(10):
        response = client.get(doc_url(doc) + suffix)
    assert response.status_code < 500, response.content


def test_the_difference_of_pages_nested_too_deep_is_answered(
    uploaded: Callable[..., str], client: Any
) -> None:
    doc = uploaded(nested_arrays_in_content())
    with deadline(10):
        response = client.get(f"/difference?leftDocumentId={doc}&rightDocumentId={doc}")
    assert response.status_code == 200, response.content
    assert response.json()["textChanges"] == []


def test_redacting_a_page_nested_too_deep_fails_with_a_clear_message(
    uploaded: Callable[..., str], run_order: Callable[..., dict[str, Any]]
) -> None:
    doc = uploaded(nested_arrays_in_content())
    redaction = {
        "type": "com.example.RedactElemType",
        "documentId": doc,
        "page": 0,
        "position": {"x": 60, "y": 100, "w": 200, "h": 40},
    }
    with deadline(30):
        order = run_order(order_body([element(doc)], annotations=[redaction]))
    assert order["currentState"] == "FAILED"
    assert "internal error" not in order["errorMessage"]
