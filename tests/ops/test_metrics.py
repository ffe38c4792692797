"""GET /metrics: what an operator scrapes, in-process and across real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import doc_url
from tests.live import ROOT, live_service
from tests.ops.metricstext import value
from tests.orders.helpers import element, order_body


def scrape(client: Any, **headers: str) -> str:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return response.content.decode()


def test_metrics_name_routes_never_paths(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(2), documentId="secret-customer-id")
    before = value(
        scrape(client),
        "transformsvc_http_requests_total",
        route="document-layout",
        method="GET",
        status="200",
    )
    for _ in range(3):
        assert client.get(doc_url(doc, "/layout")).status_code == 200
    assert client.get("/no/such/route").status_code == 404
    text = scrape(client)
    assert "secret-customer-id" not in text
    assert (
        value(
            text,
            "transformsvc_http_requests_total",
            route="document-layout",
            method="GET",
            status="200",
        )
        == before + 3
    )
    assert value(
        text,
        "transformsvc_http_requests_total",
        route="unmatched",
        method="GET",
        status="404",
    )
    assert value(
        text,
        "transformsvc_http_request_duration_seconds_count",
        route="document-layout",
        method="GET",
    )
    assert value(text, "transformsvc_upload_bytes_count", origin="upload") >= 1


def test_queue_depth_and_oldest_order_come_from_the_database(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(1))
    # Not run: without the on-commit capture the (sync) worker never sees it.
    response = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert response.status_code == 200
    from orders.models import TransformationOrder

    TransformationOrder.objects.update(
        queued_at=TransformationOrder.objects.get().queued_at - timedelta(seconds=90)
    )
    text = scrape(client)
    assert (
        value(text, "transformsvc_orders", kind="transformation", state="QUEUED") == 1
    )
    assert value(text, "transformsvc_orders", kind="comparison", state="QUEUED") == 0
    age = value(text, "transformsvc_queue_oldest_age_seconds", kind="transformation")
    assert 90 <= age < 120


def test_a_metrics_key_closes_the_endpoint(client: Any, settings: Any) -> None:
    settings.SERVICE = replace(settings.SERVICE, metrics_key="s3cret")
    refused = client.get("/metrics")
    assert refused.status_code == 401
    assert refused["Content-Type"] == "application/problem+json"
    assert refused["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    scrape(client, HTTP_AUTHORIZATION="Bearer s3cret")


def answered_layouts(folder: Path, pid: int) -> bool:
    """Whether process `pid` counted a layout request in its own file (the file
    itself exists from the start: unlabelled counters are made at import)."""
    from prometheus_client.mmap_dict import MmapedDict

    path = folder / f"counter_{pid}.db"
    if not path.exists() or path.stat().st_size < 8:
        return False
    return any(
        "transformsvc_http_requests_total" in key and "document-layout" in key
        for key, *_ in MmapedDict.read_all_values_from_file(str(path))
    )


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_two_web_processes_and_the_workers_are_counted_in_one_scrape(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    with live_service(tmp_path / "live", web_workers=2) as service:
        doc = service.upload(make_pdf(2))
        served = 0

        def layouts(n: int) -> None:
            nonlocal served
            for _ in range(n):
                assert service.get(doc_url(doc, "/layout")).status_code == 200
                served += 1

        pids = service.web_workers()
        files = tmp_path / "live" / "metrics" / "web"
        # Concurrent clients on fresh connections until both processes answered.
        for _ in range(10):
            clients = [threading.Thread(target=layouts, args=(20,)) for _ in range(8)]
            for thread in clients:
                thread.start()
            for thread in clients:
                thread.join()
            if all(answered_layouts(files, pid) for pid in pids):
                break
        assert all(answered_layouts(files, pid) for pid in pids), pids

        order = service.post_order(order_body([element(doc, (1, 2))]))
        assert service.wait_until_final(order)["currentState"] == "PROCESSED"
        # The worker counts the order just after the UPDATE that woke the poll.
        ended = {"kind": "transformation", "format": "pdf", "state": "PROCESSED"}
        deadline = time.monotonic() + 10
        while not value(
            text := service.get("/metrics").text,
            "transformsvc_orders_ended_total",
            **ended,
        ):
            assert time.monotonic() < deadline, "the ended order was never counted"
            time.sleep(0.1)

        count = value(
            text,
            "transformsvc_http_requests_total",
            route="document-layout",
            method="GET",
            status="200",
        )
        assert count == served, "requests of both processes, each counted once"
        # Counted by the web process, and ended by a qcluster worker process.
        labels = {"kind": "transformation", "format": "pdf"}
        assert value(text, "transformsvc_orders_created_total", **labels) == 1
        assert value(text, "transformsvc_orders_ended_total", **ended) == 1
        assert (
            value(
                text,
                "transformsvc_order_processing_seconds_count",
                kind="transformation",
                state="PROCESSED",
            )
            == 1
        )
        assert value(text, "transformsvc_upload_bytes_count", origin="upload") == 1
        assert value(text, "transformsvc_workers_alive") >= 1
        # The worker's own health check (deploy/compose.yaml) agrees.
        alive = subprocess.run(
            [sys.executable, "manage.py", "workeralive"],
            env=service.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert alive.returncode == 0, alive.stdout + alive.stderr
        writers = {int(f.stem.rsplit("_", 1)[1]) for f in files.glob("*.db")}
        assert writers == set(pids), "one-off commands leave no metrics files"
        assert 0 <= value(text, "transformsvc_worker_heartbeat_age_seconds") < 30
        # Each process's pool (16 threads) as of its last request, summed.
        assert value(text, "transformsvc_db_pool_connections", state="max") == 32

        # A web worker that dies stops counting in the live gauges (child_exit).
        gone = pids[0]
        os.kill(gone, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while gone in service.web_workers() or len(service.web_workers()) < 2:
            assert time.monotonic() < deadline, "gunicorn did not replace its worker"
            time.sleep(0.1)
        assert not list(files.glob(f"gauge_live*_{gone}.db"))
        text = service.get("/metrics").text
        assert value(text, "transformsvc_db_pool_connections", state="max") in (16, 32)
        # Counters of the dead process are kept: nothing served is forgotten.
        assert (
            value(
                text,
                "transformsvc_http_requests_total",
                route="document-layout",
                method="GET",
                status="200",
            )
            == served
        )


def test_the_converter_pools_observer_is_scraped(client: Any) -> None:
    from ops.metrics.conversion import POOL_METRICS

    before = scrape(client)
    POOL_METRICS.instances(3)
    POOL_METRICS.restarted("crash")
    POOL_METRICS.timed_out()
    text = scrape(client)
    assert value(text, "transformsvc_conversion_pool_instances") == 3
    for name, labels in [
        ("transformsvc_conversion_pool_restarts_total", {"reason": "crash"}),
        ("transformsvc_conversion_pool_timeouts_total", {}),
    ]:
        assert value(text, name, **labels) == value(before, name, **labels) + 1
