"""Faults: a worker killed mid-order loses nothing; the order still ends."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from tests.live import live_service
from tests.orders.helpers import element, order_body


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def many_pages(n: int) -> bytes:
    doc = pymupdf.open()
    for i in range(n):
        page = doc.new_page()
        for line in range(40):
            page.insert_text(
                (40, 40 + 18 * line), f"page {i} line {line} " * 6, fontsize=9
            )
    return doc.tobytes(deflate=True)


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_order_loses_nothing(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    # The killed order is re-queued once its timeout and grace have passed since it
    # started: a 40-page comparison (a few seconds) fits a 10 s timeout twice over.
    env = {
        "TRANSFORMSVC_ORDER_TIMEOUT": "10",
        "TRANSFORMSVC_HEARTBEAT_SECONDS": "1",
        "TRANSFORMSVC_RECOVERY_GRACE": "2",
    }
    with live_service(tmp_path / "live", extra_env=env) as service:
        octet = {"Content-Type": "application/octet-stream"}
        big = service.post("/documents", data=many_pages(40), headers=octet).json()[
            "id"
        ]
        small = service.post("/documents", data=make_pdf(3), headers=octet).json()["id"]
        slow = service.post(
            "/comparisons", json={"leftDocumentId": big, "rightDocumentId": big}
        ).json()
        slow_id = slow["comparisonOrderId"]["id"]
        others = [
            service.post(
                "/transformations", json=order_body([element(small, (n, n))])
            ).json()["transformationOrderId"]["id"]
            for n in (1, 2, 3)
        ]

        deadline = time.monotonic() + 30
        while service.get(f"/comparisons/{slow_id}").json()["currentState"] == "QUEUED":
            assert time.monotonic() < deadline, "the slow order never started"
            time.sleep(0.1)
        time.sleep(0.5)
        cluster = service.processes["worker"].pid
        busiest = max(descendants(cluster), key=cpu_ticks)
        os.kill(busiest, signal.SIGKILL)

        for order_id in others:
            final = service.wait_until_final(order_id, timeout=90)
            assert final["currentState"] == "PROCESSED", final["errorMessage"]
        deadline = time.monotonic() + 90
        while True:
            body = service.get(f"/comparisons/{slow_id}?timeoutMs=5000").json()
            if body["currentState"] in ("PROCESSED", "FAILED"):
                break
            assert time.monotonic() < deadline, f"the killed order is stuck: {body}"
        if body["currentState"] == "FAILED":
            assert body["errorMessage"], "a failed order says why"
        else:
            assert body["targetDocumentId"]
        from comparisons.models import ComparisonOrder

        assert ComparisonOrder.objects.get(pk=slow_id).attempts == 2, (
            "recovered, run again"
        )
        assert service.processes["worker"].poll() is None, "the cluster survived"
