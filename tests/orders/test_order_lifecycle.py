"""Order lifecycle: long poll, reporting view, recovery of orders a worker left behind."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from jobs.recovery import reap_stale_orders
from jobs.states import State
from orders.build import order_run
from orders.models import TransformationOrder
from tests.orders.helpers import element, order_body
from transformsvc.conf import service


def queued_order(doc_id: str) -> TransformationOrder:
    """An order as POST leaves it, without a worker having picked it up yet."""
    body = order_body([element(doc_id, (1, 1))])
    return TransformationOrder.objects.create(
        id=f"order-{time.monotonic_ns()}",
        format="pdf",
        request={
            "transformationDetails": [
                {
                    "transformationElements": [
                        {
                            "documentId": {"id": doc_id},
                            "pagesSelectionList": [{"minPage": 1, "maxPage": 1}],
                            "documentTitle": None,
                        }
                    ],
                    "documentTitle": None,
                }
            ],
            "annotations": None,
        },
        input_count=len(body["transformationDetails"]),
    )


@pytest.mark.django_db(transaction=True)
def test_long_poll_returns_as_soon_as_the_order_ends(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    order = queued_order(uploaded(make_pdf(2)))

    def worker() -> None:
        time.sleep(0.5)
        order_run(order_id=order.id)
        connection.close()

    thread = threading.Thread(target=worker)
    started = time.monotonic()
    thread.start()
    body = client.get(f"/transformations/{order.id}?timeoutMs=20000").json()
    waited = time.monotonic() - started
    thread.join()
    assert body["currentState"] == "PROCESSED"
    assert 0.4 < waited < 5, waited


@pytest.mark.django_db(transaction=True)
def test_long_poll_answers_with_the_current_state_after_the_timeout(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    order = queued_order(uploaded(make_pdf(1)))
    started = time.monotonic()
    body = client.get(f"/transformations/{order.id}?timeoutMs=300").json()
    assert body["currentState"] == "QUEUED"
    assert (
        body["processedDate"] is None and body["transformationResultDocumentID"] is None
    )
    assert 0.25 < time.monotonic() - started < 3


def test_bad_timeout_is_400(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    order = queued_order(uploaded(make_pdf(1)))
    response = client.get(f"/transformations/{order.id}?timeoutMs=soon")
    assert response.status_code == 400 and "timeoutMs" in response.json()["errors"]


def test_report_view_has_one_row_per_order_with_milliseconds(
    uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    order = queued_order(uploaded(make_pdf(3)))
    order_run(order_id=order.id)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT order_id, state, format, queued_ms, processing_ms, page_count, "
            "input_count, output_bytes FROM transformation_order_report"
        )
        rows = cursor.fetchall()
    order.refresh_from_db()
    assert rows == [
        (
            order.id,
            "PROCESSED",
            "pdf",
            order.queued_ms,
            order.processing_ms,
            1,
            1,
            order.output_bytes,
        )
    ]
    assert order.output_bytes and order.output_bytes > 0


def test_an_order_left_processing_is_requeued_once_then_failed(
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    order = queued_order(uploaded(make_pdf(1)))
    long_ago = timezone.now() - timedelta(seconds=service().order_timeout + 60)
    TransformationOrder.objects.filter(pk=order.id).update(
        state=State.PROCESSING, started_at=long_ago, attempts=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert reap_stale_orders() == 1
    order.refresh_from_db()
    assert (
        order.state == State.PROCESSED
    )  # re-queued and run again by the (sync) worker
    assert order.attempts == 2

    TransformationOrder.objects.filter(pk=order.id).update(
        state=State.PROCESSING, started_at=long_ago, attempts=2
    )
    assert reap_stale_orders() == 1
    order.refresh_from_db()
    assert order.state == State.FAILED
    assert "did not finish" in (order.error_message or "")
