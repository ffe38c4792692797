"""The web process's cache of final documents for page reads (documents/readcache.py):
a warm search reads no row, and a deleted document is not found from it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from documents.models import Document
from documents.services.deletion import document_remove
from tests.conftest import doc_url, make_pdf_bytes
from tests.test_auth import as_owner, new_key, upload_as


def _search(client: Any, doc_id: str, word: str = "river") -> Any:
    return client.get(doc_url(doc_id, "/pages/0/text", searchText=word))


def test_a_warm_search_reads_no_row(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(["coffee near the river"]))
    first = _search(client, doc_id)
    with CaptureQueriesContext(connection) as queries:
        again = _search(client, doc_id)
        lines = client.get(doc_url(doc_id, "/pages/0/text/position"))
        image = client.get(doc_url(doc_id, "/pages/0/image", width=50))
    assert again.status_code == 200 and lines.status_code == 200
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert again.json() == first.json()
    assert len(again.json()["searchResults"]) == 1
    assert [q["sql"] for q in queries.captured_queries] == []


def test_a_document_deleted_elsewhere_is_not_found_from_the_cache(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    doc_id = uploaded(make_pdf(["coffee near the river"]))
    assert _search(client, doc_id).status_code == 200
    # As another process deletes it: rows, then (at commit) files; this
    # process is not told.
    with django_capture_on_commit_callbacks(execute=True):
        document_remove(Document.objects.get(pk=doc_id))
    assert _search(client, doc_id).status_code == 404
    assert client.get(doc_url(doc_id, "/pages/0/text/position")).status_code == 404
    assert client.get(doc_url(doc_id, "/pages/0/image", width=50)).status_code == 404


def test_a_row_gone_with_its_file_left_is_read_again_after_the_cache_time(
    client: Any,
    settings: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    settings.SERVICE = replace(settings.SERVICE, read_cache_seconds=0.2)
    doc_id = uploaded(make_pdf(["coffee near the river"]))
    assert _search(client, doc_id).status_code == 200
    Document.objects.filter(pk=doc_id).delete()  # a file deletion that failed
    time.sleep(0.25)
    assert _search(client, doc_id).status_code == 404


def test_another_owner_never_gets_the_cached_row(settings: Any) -> None:
    settings.TRANSFORMSVC_AUTH = "token"
    alice, bob = as_owner(new_key("alice")), as_owner(new_key("bob"))
    doc_id = upload_as(alice, make_pdf_bytes(["coffee near the river"]))
    assert _search(alice, doc_id).status_code == 200  # cached for alice
    assert _search(bob, doc_id).status_code == 404
