"""A bounded load on loopback: 200 uploads and 200 orders from 20 clients."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.live import live_service
from tests.orders.helpers import element, order_body

CLIENTS = 20
UPLOADS = 200
ORDERS = 200


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_load_of_uploads_and_orders_loses_nothing(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    pdfs = [make_pdf(3, prefix=f"doc{n} page") for n in range(10)]
    statuses: Counter[int] = Counter()
    with live_service(tmp_path / "live", workers=2, threads=32) as service:
        session = requests.Session()
        adapter = requests.adapters.HTTPAdapter(pool_maxsize=CLIENTS)
        session.mount("http://", adapter)

        def upload(n: int) -> str:
            response = session.post(
                service.base + "/documents",
                data=pdfs[n % 10],
                headers={"Content-Type": "application/octet-stream"},
                timeout=60,
            )
            statuses[response.status_code] += 1
            return response.json()["id"]

        def order(n: int) -> str:
            doc = doc_ids[n % len(doc_ids)]
            response = session.post(
                service.base + "/transformations",
                timeout=60,
                json=order_body([element(doc, (3, 3), (1, 1))]),
            )
            statuses[response.status_code] += 1
            return response.json()["transformationOrderId"]["id"]

        started = time.monotonic()
        with ThreadPoolExecutor(CLIENTS) as pool:
            doc_ids = list(pool.map(upload, range(UPLOADS)))
            order_ids = list(pool.map(order, range(ORDERS)))
            finals = list(
                pool.map(lambda i: service.wait_until_final(i, timeout=240), order_ids)
            )
        elapsed = time.monotonic() - started
    assert statuses == Counter({200: UPLOADS + ORDERS}), statuses
    assert len(set(doc_ids)) == UPLOADS and len(set(order_ids)) == ORDERS
    states = Counter(f["currentState"] for f in finals)
    assert states == Counter({"PROCESSED": ORDERS}), [
        f["errorMessage"] for f in finals
    ][:3]
    print(
        f"load: {UPLOADS} uploads + {ORDERS} orders in {elapsed:.1f} s "
        f"({(UPLOADS + ORDERS) / elapsed:.1f} requests/s end to end)"
    )
