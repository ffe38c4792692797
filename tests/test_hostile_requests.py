"""Hostile requests answer a clear 4xx, and a part that does not answer a 503:
never a 500."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.db import OperationalError


@pytest.mark.parametrize(
    "path",
    [
        "/documents/a%00b",
        "/documents/a%00b/layout",
        "/transformations/x%0Ay",
        "/annotation?documentId=a%00b",
        "/documents/a%7Fb/pages/0/text/position",
    ],
)
def test_a_control_character_in_an_id_is_a_4xx_problem(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (400, 404), response.content
    assert response["Content-Type"] == "application/problem+json"
    assert "control character" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/transformations", "/comparisons", "/conversions"])
def test_json_nested_a_thousand_deep_is_a_400_problem(client: Any, path: str) -> None:
    body = "[" * 1000 + "]" * 1000
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert "nested deeper" in response.json()["detail"]


def test_json_nested_as_deep_as_any_request_is_still_read(client: Any) -> None:
    deep: Any = {"id": "doc"}
    for _ in range(10):
        deep = {"x": deep}
    response = client.post(
        "/transformations",
        data=json.dumps({"format": "pdf", "transformationDetails": [deep]}),
        content_type="application/json",
    )
    assert response.status_code == 400  # a field error, not a parse error
    assert "nested deeper" not in response.json()["detail"]


def test_a_database_that_does_not_answer_is_a_503_with_retry_after(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr("documents.selectors.document_described", unreachable)
    started = time.monotonic()
    response = client.get("/documents/anything")
    assert time.monotonic() - started < 2
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "5"
    assert (
        response.json()["detail"] == "the database does not answer; try again shortly"
    )
