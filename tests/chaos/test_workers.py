"""Every process of the cluster SIGKILLed with orders in flight, then the
cluster restarted: each order ends, those killed mid-run after one more run,
the others after one."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.chaos.servers import (
    assert_every_order_ends_once,
    assert_no_drift,
    cluster_env,
    redis,
)
from tests.live import live_service
from tests.orders.helpers import element, order_body
from tests.orders.test_faults import many_pages

pytestmark = [pytest.mark.chaos, pytest.mark.django_db(transaction=True)]


def test_every_worker_killed_with_orders_in_flight_each_order_ends(
    tmp_path: Path,
) -> None:
    from orders.models import TransformationOrder

    # Orders past this are recovered: short, so that the case stays bounded.
    env = cluster_env("", TRANSFORMSVC_ORDER_TIMEOUT="6", TRANSFORMSVC_WORKERS="2")
    with redis(tmp_path / "redis") as broker:
        env["REDIS_URL"] = broker.url
        with live_service(tmp_path / "live", extra_env=env) as service:
            doc = service.upload(many_pages(40))
            orders = [
                service.post_order(order_body([element(doc, (1, 40))], fmt="pdf"))
                for _ in range(6)
            ]
            deadline = time.monotonic() + 15
            while not TransformationOrder.objects.filter(state="PROCESSING").exists():
                assert time.monotonic() < deadline, "no order started"
                time.sleep(0.05)
            cluster = service.processes["worker"]
            os.killpg(cluster.pid, signal.SIGKILL)  # the cluster and all its own
            cluster.wait()
            killed_mid_run = set(
                TransformationOrder.objects.filter(state="PROCESSING").values_list(
                    "id", flat=True
                )
            )
            service.start_worker()

            assert_every_order_ends_once(service, orders, timeout=30, max_attempts=2)
            once = TransformationOrder.objects.exclude(pk__in=killed_mid_run)
            assert set(once.values_list("attempts", flat=True)) == {1}
    assert_no_drift(killed_mid_run=len(killed_mid_run))
