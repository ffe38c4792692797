"""The broker (a Redis without persistence, as the issue's operator ran) restarted,
down or hung: the database is the queue's truth, so every order that answered 200
still runs, once, and a request during the outage answers fast, never 500.

One service goes through the three in turn (each case on a service of its own
would start it three times, a third of the suite's budget for chaos)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from tests.chaos.servers import (
    Redis,
    assert_every_order_ends_once,
    assert_no_drift,
    cluster_env,
    redis,
)
from tests.live import LiveService, live_service
from tests.orders.helpers import element, order_body

pytestmark = [pytest.mark.chaos, pytest.mark.django_db(transaction=True)]


def order_meanwhile(service: LiveService, doc: str, count: int) -> list[str]:
    """Post `count` orders while the broker is out of reach: each answers 200 (the
    order owed) or 503 with Retry-After, within 2 s; the ids of those accepted."""
    accepted = []
    for n in range(count):
        started = time.monotonic()
        response = requests.post(
            service.base + "/transformations",
            json=order_body([element(doc, (n % 2 + 1, 2))]),
            timeout=30,
        )
        seconds = time.monotonic() - started
        assert response.status_code in (200, 503), response.text
        assert seconds < 2, f"answered {response.status_code} after {seconds:.1f} s"
        if response.status_code == 200:
            accepted.append(response.json()["transformationOrderId"]["id"])
        else:
            assert response.headers.get("Retry-After"), response.text
    return accepted


def test_redis_restarted_down_or_hung_loses_no_order_and_answers_fast(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    from orders.models import TransformationOrder

    with (
        redis(tmp_path / "redis") as broker,
        live_service(
            tmp_path / "live", extra_env=cluster_env(broker.url), start_worker=False
        ) as service,
    ):
        doc = service.upload(make_pdf(3))
        # Restarted: the tasks of queued orders (no worker took them yet) forgotten.
        queued = [
            service.post_order(order_body([element(doc, (n % 3 + 1, 3))]))
            for n in range(8)
        ]
        broker.kill()
        # Down (connections refused), then hung (accepted, never answered).
        during = order_meanwhile(service, doc, 4)
        broker.start()
        broker.pause()
        try:
            during += order_meanwhile(service, doc, 2)
        finally:
            broker.resume()
        upload = service.post(
            "/documents",
            data=make_pdf(1),
            headers={"Content-Type": "application/octet-stream"},
        )
        assert upload.status_code == 200, upload.text
        service.start_worker()

        # Every order the database holds ends, whatever its request was answered:
        # no ghost stays QUEUED.
        every = list(TransformationOrder.objects.values_list("id", flat=True))
        assert set(queued + during) <= set(every)
        assert_every_order_ends_once(service, every, timeout=25)
    assert_no_drift()


def test_the_redis_of_the_suite_can_be_stopped_and_started_again(
    tmp_path: Path,
) -> None:
    """The harness itself: a restarted Redis answers on the same port, empty."""
    import redis as redis_client

    server = Redis(tmp_path)
    server.start()
    try:
        redis_client.Redis.from_url(server.url).rpush("k", "v")
        server.kill()
        server.start()
        assert redis_client.Redis.from_url(server.url).llen("k") == 0
    finally:
        server.stop()
