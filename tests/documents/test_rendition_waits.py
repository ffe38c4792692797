"""Readers of pages wait for a document being converted: they answer as soon as
its rendition is ready, 503 with Retry-After when the wait runs out, and 422
naming the reason when the conversion failed."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import close_old_connections

from documents.models import Document
from documents.renditions import rendition_failed, rendition_ready
from documents.services import document_delete
from tests.conftest import doc_url
from tests.orders.helpers import element, order_body


def _pending(doc_id: str) -> None:
    Document.objects.filter(pk=doc_id).update(
        rendition_state=Document.Rendition.PENDING
    )


@pytest.fixture
def short_wait(settings: Any) -> None:
    settings.SERVICE = replace(settings.SERVICE, rendition_wait=0.3)


def test_readers_answer_503_while_the_conversion_runs_past_the_wait(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    short_wait: None,
) -> None:
    doc_id = uploaded(make_pdf(2))
    _pending(doc_id)
    for path, query in (
        ("/layout", {}),
        ("/pages/0/text", {"searchText": "page"}),
        ("/pages/0/text/position", {}),
        ("/pages/0/image", {}),
    ):
        started = time.monotonic()
        response = client.get(doc_url(doc_id, path, **query))
        assert response.status_code == 503, (path, response.content)
        assert response["Retry-After"] == "5"
        assert "still being converted" in response.json()["detail"]
        assert 0.25 < time.monotonic() - started < 3
    # The document itself is there: its metadata and original file answer at once.
    assert client.get(doc_url(doc_id)).status_code == 200
    assert client.get(doc_url(doc_id, "/file")).status_code == 200


def test_a_failed_conversion_answers_422_with_its_reason_everywhere(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(2))
    _pending(doc_id)
    rendition_failed(doc_id, "the file is encrypted with a password")
    for path, query in (
        ("/pages/0/text", {"searchText": "x"}),
        ("/pages/1/image", {}),
    ):
        response = client.get(doc_url(doc_id, path, **query))
        assert response.status_code == 422, (path, response.content)
        assert "encrypted with a password" in response.json()["detail"]
    layout = client.get(doc_url(doc_id, "/layout")).json()
    assert layout["renditionError"] == "the file is encrypted with a password"
    order = client.post(
        "/transformations",
        data=order_body([element(doc_id)]),
        content_type="application/json",
    )
    assert order.status_code == 400
    errors = order.json()["errors"]
    field = "transformationDetails[0].transformationElements[0].documentId"
    assert "encrypted with a password" in errors[field][0]


@pytest.mark.django_db(transaction=True)
def test_a_waiting_reader_wakes_when_the_rendition_is_ready(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(["the awaited words"]))
    layout = Document.objects.get(pk=doc_id).layout
    _pending(doc_id)

    def convert_later() -> None:
        time.sleep(0.5)
        rendition_ready(doc_id, layout=layout)
        close_old_connections()

    threading.Thread(target=convert_later).start()
    started = time.monotonic()
    response = client.get(doc_url(doc_id, "/pages/0/text", searchText="awaited"))
    waited = time.monotonic() - started
    assert response.status_code == 200
    assert response.json()["searchResults"][0]["positionText"]["text"] == "awaited"
    assert 0.4 < waited < 1.8  # woken by NOTIFY, not by the 2 s safety re-check


@pytest.mark.django_db(transaction=True)
def test_a_reader_waiting_on_a_document_deleted_meanwhile_answers_404(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    """The viewer's user gave up and deleted it; the waiting request ends with
    a 404 naming the deletion, not a 500."""
    doc_id = uploaded(make_pdf(["never converted"]))
    _pending(doc_id)

    def delete_later() -> None:
        time.sleep(0.3)
        document_delete(document_id=doc_id)
        close_old_connections()

    threading.Thread(target=delete_later).start()
    started = time.monotonic()
    response = client.get(doc_url(doc_id, "/pages/0/text/position"))
    assert response.status_code == 404, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert "was deleted while it was being read" in response.json()["detail"]
    assert time.monotonic() - started < 1.8  # woken by the delete's NOTIFY
