"""Damaged and encrypted PDFs: refused at upload when unreadable or locked, usable when
the damage is recoverable or only an owner password is set.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from tests.conftest import doc_url
from tests.documents.hostile.build import encrypted, malformed, truncated
from tests.documents.hostile.helpers import (
    assert_problem,
    assert_processed,
    assert_usable,
    deadline,
)
from tests.orders.helpers import element, order_body


def test_malformed_pdf_is_refused_at_upload(upload: Callable[..., Any]) -> None:
    with deadline(10):
        answer = upload(malformed())
        assert_problem(answer, 415, "not a readable PDF")
    # MuPDF's own message is kept, never where the upload was spooled.
    detail = answer.json()["detail"]
    assert "/" not in detail.split("(", 1)[1], detail


def test_malformed_pdf_kept_as_is_makes_an_order_on_it_a_clear_400(
    upload: Callable[..., Any], client: Any
) -> None:
    response = upload(malformed(), failOnUnsupported="false")
    assert response.status_code == 200, response.content
    doc = response.json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] is None
    answer = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert_problem(answer, 400, "not a readable PDF")


def test_truncated_pdf_is_refused_as_damaged(upload: Callable[..., Any]) -> None:
    # MuPDF rebuilds three pages from what is left, qpdf two: orders would take
    # other pages than the layout shows.
    with deadline(10):
        assert_problem(upload(truncated()), 415, "damaged", "3 pages", "2 pages")


def test_pdf_with_a_user_password_is_refused(upload: Callable[..., Any]) -> None:
    with deadline(10):
        assert_problem(upload(encrypted(user="user-secret")), 415, "password")


def test_pdf_with_only_an_owner_password_is_usable(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    path = assert_usable(upload, run_order, encrypted(user=""), pages=2)
    with pikepdf.open(path) as pdf:
        assert not pdf.is_encrypted  # outputs are never encrypted


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "pages"),
    [("xref_command_missing.pdf", 1), ("poppler-90-0-fuzzed.pdf", 16)],
)
def test_damaged_corpus_pdfs_are_usable_in_orders(
    corpus: Path,
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    name: str,
    pages: int,
) -> None:
    data = (corpus / name).read_bytes()
    # Their damage is copied along: qpdf --check reports it in the outputs too.
    assert_usable(upload, run_order, data, pages=pages, check=False)
    doc = upload(data).json()["id"]
    redaction = {
        "type": "com.example.RedactElemType",
        "documentId": doc,
        "page": 0,
        "position": {"x": 0, "y": 0, "w": 100, "h": 20},
    }
    with deadline(60):
        order = run_order(order_body([element(doc, (1, 1))], annotations=[redaction]))
    assert_processed(order, pages=1, check=False)
