"""Two nodes, no shared disk: each a gunicorn + qcluster with its own data
directory, sharing one PostgreSQL, one Redis (the django-q2 broker) and one
S3-compatible store (moto's server). What one node stores, the other reads;
what a dead node was doing, the other finishes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf
import pytest

from bench.service import PeakMemory
from tests.conftest import doc_url
from tests.live import LiveService, live_service, redis_server, s3_server, stop
from tests.orders.helpers import element, order_body
from tests.orders.test_faults import many_pages


def noise_pdf(pages: int) -> bytes:
    """About 4 MB a page of incompressible image data."""
    doc = pymupdf.open()
    rng = np.random.default_rng(7)
    for _ in range(pages):
        pixels = rng.integers(0, 255, (1200, 1100, 3), dtype=np.uint8).tobytes()
        page = doc.new_page()
        page.insert_image(
            page.rect, pixmap=pymupdf.Pixmap(pymupdf.csRGB, 1100, 1200, pixels, False)
        )
    return bytes(doc.tobytes())


def pdf_pages(data: bytes, tmp: Path) -> list[str]:
    path = tmp / f"{uuid.uuid4().hex}.pdf"
    path.write_bytes(data)
    out = subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return [" ".join(page.split()) for page in out.split("\f") if page.strip()]


@contextmanager
def two_nodes(tmp: Path, **extra: str) -> Iterator[tuple[LiveService, LiveService]]:
    """Node A (web only: its worker is started by the test) and node B (web and
    worker), on a shared Redis and S3; skipped without any Redis."""
    with ExitStack() as stack:
        redis_url = stack.enter_context(redis_server(tmp / "redis"))
        if redis_url is None:
            pytest.skip(
                "no Redis: REDIS_URL and 127.0.0.1:6379 do not answer and there is "
                "no redis-server to start (transformsvc/scripts/install.sh installs it)"
            )
        store = stack.enter_context(s3_server(tmp / "s3"))
        shared = {
            **store.env(),
            "REDIS_URL": redis_url,
            # Its own queue on a Redis other test runs may share.
            "Q_CLUSTER_NAME": f"nodes-{uuid.uuid4().hex[:8]}",
            **extra,
        }
        nodes = [
            stack.enter_context(
                live_service(
                    tmp / name,
                    start_worker=name == "b",
                    extra_env={**shared, "TRANSFORMSVC_DATA_DIR": str(tmp / name)},
                )
            )
            for name in ("a", "b")
        ]
        nodes[0].store = store  # type: ignore[attr-defined]
        yield nodes[0], nodes[1]


def wait_comparison(node: LiveService, order_id: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = node.get(f"/comparisons/{order_id}?timeoutMs=5000").json()
        if body["currentState"] in ("PROCESSED", "FAILED"):
            return body
    raise AssertionError(f"comparison {order_id} did not end: {body}")


@pytest.mark.cluster
@pytest.mark.nodes
@pytest.mark.django_db(transaction=True)
def test_two_nodes_share_documents_through_s3_and_take_over_a_dead_nodes_order(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    # A dead node's order is taken over once its timeout and grace have passed
    # since it started: a 20-page comparison runs in about 2 s.
    env = {
        "TRANSFORMSVC_ORDER_TIMEOUT": "6",
        "TRANSFORMSVC_RECOVERY_GRACE": "1",
        "TRANSFORMSVC_HEARTBEAT_SECONDS": "1",
    }
    with two_nodes(tmp_path, **env) as (a, b):
        store = a.store  # type: ignore[attr-defined]
        # Uploaded on A: its bytes are in the shared store.
        doc = a.upload(make_pdf(3))
        assert [k for k in store.keys() if k.startswith("documents/")], store.keys()

        # Ordered on B, built by B's worker (A has none), downloaded from A.
        square = {
            "type": "com.example.viewer.annotation.api.SquareElemType",
            "documentId": {"id": doc},
            "page": 0,
            "position": {"x": 100, "y": 200, "w": 50, "h": 30},
            "id": "sq-1",
        }
        orders = {
            "pdf": order_body([element(doc, (3, 3), (1, 1))]),
            "fdf": order_body(
                [element(doc, (1, 1))], fmt="pdf-fdf", annotations=[square]
            ),
            "zip": order_body([element(doc, (2, 2))], [element(doc, (1, 1))]),
        }
        results = {}
        for name, body in orders.items():
            final = b.wait_until_final(b.post_order(body))
            assert final["currentState"] == "PROCESSED", final["errorMessage"]
            results[name] = final["transformationResultDocumentID"]["id"]
        pdf = a.get(doc_url(results["pdf"], "/file"))
        assert pdf.status_code == 200
        assert pdf_pages(pdf.content, tmp_path) == ["page 3", "page 1"]
        fdf = a.get(doc_url(results["fdf"], "/file", format="fdf"))
        assert fdf.status_code == 200 and fdf.content.startswith(b"%FDF")
        assert b"/Annots" in fdf.content
        container = a.get(doc_url(results["zip"], "/file", format="zip"))
        assert container.status_code == 200 and container.content[:2] == b"PK"
        ranged = a.get(doc_url(results["pdf"], "/file"), headers={"Range": "bytes=0-4"})
        assert ranged.status_code == 206 and ranged.content == b"%PDF-"
        # Pages of a document stored by A, read on B.
        hits = b.get(doc_url(doc, "/pages/1/text", searchText="page 2")).json()
        assert len(hits["searchResults"]) == 1
        image = b.get(doc_url(doc, "/pages/0/image", width=80))
        assert image.status_code == 200 and image.content[:4] == b"\x89PNG"
        # A large download from the store streams through a spooled file, never
        # whole in the web process's memory.
        large = a.upload(noise_pdf(pages=6))
        b.get(doc_url(large, "/file")).raise_for_status()  # the thread's S3 client
        with PeakMemory(b.web_workers()) as peak:
            before = peak.peak_mb
            got = b.get(doc_url(large, "/file"), stream=True)
            size = sum(len(chunk) for chunk in got.iter_content(1 << 20))
        assert size > 20_000_000
        assert peak.peak_mb - before < 12, f"+{peak.peak_mb - before:.1f} MB"
        ready = b.get("/ready").json()
        assert ready["storage"] is True and ready["worker"] is True, ready
        # Neither node kept a document in a folder of its own (only caches).
        for node in ("a", "b"):
            assert not (tmp_path / node / "files").exists()

        # B takes a long order and dies in the middle of it; A finishes it.
        big = a.upload(many_pages(20))
        slow = b.post(
            "/comparisons", json={"leftDocumentId": big, "rightDocumentId": big}
        )
        slow_id = slow.json()["comparisonOrderId"]["id"]
        deadline = time.monotonic() + 30
        while b.get(f"/comparisons/{slow_id}").json()["currentState"] == "QUEUED":
            assert time.monotonic() < deadline, "B never started the order"
            time.sleep(0.05)
        time.sleep(0.5)
        assert b.get(f"/comparisons/{slow_id}").json()["currentState"] == "PROCESSING"
        os.killpg(b.processes["worker"].pid, signal.SIGKILL)  # the whole node's worker
        b.processes["worker"].wait()
        a.start_worker()

        final = wait_comparison(a, slow_id, timeout=60)
        assert final["currentState"] == "PROCESSED", final["errorMessage"]
        from comparisons.models import ComparisonOrder

        assert ComparisonOrder.objects.get(pk=slow_id).attempts == 2
        assert slow_id in (tmp_path / "a" / "worker.log").read_text()
        target = b.get(doc_url(final["targetDocumentId"], "/file"))
        assert target.status_code == 200 and target.content[:5] == b"%PDF-"
        stop(a.processes["worker"])
