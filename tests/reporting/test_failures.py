"""Failed orders: messages name documents by id (never a stored file), carry a
category for reports, and can be retried as a new order linked to the old one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings

from jobs.errors import classify, without_paths
from jobs.models import OrderInput
from jobs.services import order_retry
from orders.models import TransformationOrder
from tests.orders.helpers import element, file_path, order_body

GARBAGE = b"%PDF-1.7\n" + b"\x00 this is not a PDF any more " * 50


def test_a_comparison_of_a_damaged_document_names_the_document_not_its_file(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    left, right = uploaded(make_pdf(2)), uploaded(make_pdf(2))
    stored = file_path(right)
    stored.write_bytes(GARBAGE)  # the stored file was damaged after the upload
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/comparisons",
            data={"leftDocumentId": left, "rightDocumentId": right},
            content_type="application/json",
        )
    order_id = response.json()["comparisonOrderId"]["id"]
    order = client.get(f"/comparisons/{order_id}").json()
    message = order["errorMessage"]
    assert order["currentState"] == "FAILED"
    assert f"document {right!r}" in message and "could not be opened" in message
    assert stored.name not in message and "/" not in message.replace(right, "")
    assert str(settings.DATA_DIR) not in message

    difference = client.get(
        "/difference", {"leftDocumentId": left, "rightDocumentId": right}
    ).json()
    assert right in difference["detail"] and stored.name not in difference["detail"]


def test_failures_are_categorised_for_reports() -> None:
    assert classify("timed out after 600 s") == "timeout"
    assert classify("document 'a' could not be opened as a PDF") == "damaged_input"
    assert classify("document 'a' was deleted before the order ran") == "deleted_input"
    assert classify("Redaction could not be verified: text remains") == "redaction"
    assert classify("Opacity must be between 0 and 1 (got 3).") == "invalid_request"
    assert (
        classify(
            "the order did not finish within 600 s after 2 attempts (its worker stopped)"
        )
        == "worker_lost"
    )
    assert classify("something new") == "other"
    assert classify(None) is None


def test_paths_of_stored_files_never_reach_a_message() -> None:
    stored = f"{settings.MEDIA_ROOT}/documents/2026/11/24/0a1b2c"
    assert without_paths(f"Failed to open file '{stored}'.") == (
        "Failed to open file 'a stored file'."
    )


def test_a_failed_order_retried_runs_again_as_a_new_linked_order(
    client: Any,
    run_order: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    original = make_pdf(3)
    doc = uploaded(original)
    stored = file_path(doc)
    stored.write_bytes(GARBAGE)
    failed = run_order(order_body([element(doc, (2, 3))]))
    assert failed["currentState"] == "FAILED"
    old = TransformationOrder.objects.get(pk=failed["transformationOrderId"]["id"])
    assert old.error_category == "damaged_input"

    stored.write_bytes(original)  # the operator restored the file
    with django_capture_on_commit_callbacks(execute=True):
        retry = order_retry(old)
    again = client.get(f"/transformations/{retry.id}").json()
    assert again["currentState"] == "PROCESSED", again["errorMessage"]
    assert again["transformationDetails"] == failed["transformationDetails"]
    retry.refresh_from_db()
    assert retry.retry_of_id == old.id and retry.input_pages == 2
    assert retry.error_category is None and retry.page_count == 2
    assert OrderInput.objects.filter(order_id=retry.id).count() == 1
