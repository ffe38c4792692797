"""The real worker path: gunicorn and a django-q2 qcluster on PostgreSQL."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.live import live_service
from tests.orders.helpers import element, file_path, order_body, pdftotext_pages


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_orders_run_on_a_real_qcluster_and_the_worker_reports_ready(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    with live_service(tmp_path / "live") as service:
        a, b = (service.upload(make_pdf(5, prefix=f"doc{n} page")) for n in range(2))
        order_ids = [
            service.post_order(
                order_body([element(a, (5, 5), (1, 1)), element(b, (2, 2))])
            )
            for _ in range(3)
        ]
        finals = [service.wait_until_final(order_id) for order_id in order_ids]
        for final in finals:
            assert final["currentState"] == "PROCESSED", final["errorMessage"]
            pages = pdftotext_pages(
                file_path(final["transformationResultDocumentID"]["id"])
            )
            assert pages == ["doc0 page 5", "doc0 page 1", "doc1 page 2"]
        ready = service.get("/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json()["worker"] is True


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_fifty_long_polls_do_not_block_other_requests_and_wake_when_the_order_ends(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    import threading
    import time

    with live_service(tmp_path / "live", start_worker=False, threads=64) as service:
        doc = service.upload(make_pdf(3))
        order_id = service.post_order(order_body([element(doc, (1, 3))]))
        answers: list[tuple[str, float]] = []

        def wait() -> None:
            started = time.monotonic()
            body = service.get(f"/transformations/{order_id}?timeoutMs=30000").json()
            answers.append((body["currentState"], time.monotonic() - started))

        waiters = [threading.Thread(target=wait) for _ in range(50)]
        for thread in waiters:
            thread.start()
        time.sleep(1.0)
        latencies = []
        for _ in range(10):
            started = time.monotonic()
            assert service.get(f"/documents/{doc}/layout").status_code == 200
            latencies.append(time.monotonic() - started)
        assert max(latencies) < 1.0, latencies
        assert answers == [], "nobody answers before the order ends"

        service.start_worker()
        for thread in waiters:
            thread.join(timeout=60)
        assert len(answers) == 50
        assert {state for state, _ in answers} == {"PROCESSED"}
        assert max(elapsed for _, elapsed in answers) < 25


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_an_idle_database_broker_is_woken_by_the_enqueue_not_by_its_poll(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    """With an 8 s poll, only the NOTIFY sent on enqueue can start orders at once
    (the stock broker sleeps out its poll: this test fails with it)."""
    from orders.models import TransformationOrder

    with live_service(
        tmp_path / "live", extra_env={"TRANSFORMSVC_Q_POLL": "8"}
    ) as service:
        doc = service.upload(make_pdf(2))
        order_ids = []
        for _ in range(3):
            time.sleep(1.0)  # the cluster goes idle: its pusher waits on the queue
            order_id = service.post_order(order_body([element(doc, (2, 2))]))
            assert service.wait_until_final(order_id, timeout=20)["currentState"] == (
                "PROCESSED"
            )
            order_ids.append(order_id)
        for order in TransformationOrder.objects.filter(pk__in=order_ids):
            assert order.started_at is not None
            waited = (order.started_at - order.queued_at).total_seconds()
            assert waited < 2.0, f"order queued for {waited:.3f} s"
        stop_woken(service.processes["worker"])


def stop_woken(worker: subprocess.Popen[bytes], timeout: float = 15) -> None:
    """SIGTERM the cluster and NOTIFY its idle pusher until it ends: otherwise the
    pusher sleeps out its poll (8 s) before it sees the stop."""
    from django.db import connection

    from jobs.broker import CHANNEL

    worker.terminate()
    deadline = time.monotonic() + timeout
    while worker.poll() is None and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, 'stop')", [CHANNEL])
        time.sleep(0.2)


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_workers_over_their_memory_limit_are_replaced_without_losing_orders(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    """A 1 MB limit: every worker passes it, so each is replaced after each order."""
    with live_service(
        tmp_path / "live", extra_env={"TRANSFORMSVC_WORKER_MAX_RSS_MB": "1"}
    ) as service:
        doc = service.upload(make_pdf(2))
        order_ids = [
            service.post_order(order_body([element(doc, (2, 2))])) for _ in range(4)
        ]
        finals = [service.wait_until_final(order_id) for order_id in order_ids]
        assert [final["currentState"] for final in finals] == ["PROCESSED"] * 4
    log = (tmp_path / "live" / "worker.log").read_text(errors="replace")
    assert log.count("recycled worker") >= 3, log[-2000:]
