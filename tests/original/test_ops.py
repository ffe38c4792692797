"""GET /metadata and GET /weather as the original's broker answers them."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from jobs.models import WorkerHeartbeat
from tests.conftest import make_pdf_bytes
from tests.orders.helpers import element, order_body


def test_metadata_names_the_version_and_the_uptime(client: Any) -> None:
    metadata = client.get("/metadata").json()
    assert set(metadata) == {"broker.version", "broker.uptime"}
    assert metadata["broker.version"] == client.get("/version").json()["transformsvc"]
    assert re.fullmatch(r"(\d+d )?\d+h \d+m", metadata["broker.uptime"])


def test_weather_grows_with_the_queue_and_the_cpu_load(
    client: Any, uploaded: Callable[..., str], monkeypatch: Any
) -> None:
    cores = os.cpu_count() or 1
    monkeypatch.setattr(os, "getloadavg", lambda: (cores * 0.5, 0.0, 0.0))
    response = client.get("/weather")
    assert response.status_code == 200
    assert response.content == b"0.5"  # a plain number
    # Three orders waiting, two live workers: 1.5 orders per worker.
    now = timezone.now()
    for name in ("w1", "w2"):
        WorkerHeartbeat.objects.create(name=name, seen_at=now)
    doc_id = uploaded(make_pdf_bytes(1))
    for _ in range(3):  # no worker runs them: they stay QUEUED
        client.post(
            "/transformations",
            data=order_body([element(doc_id)]),
            content_type="application/json",
        )
    assert client.get("/weather").json() == 2.0
