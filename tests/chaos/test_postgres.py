"""PostgreSQL crashed and restarted under load (a throwaway server, the default
database broker): requests during the outage answer 503 fast, never 500, and
every order the database holds ends, once; no file or row drifts."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
import requests

from tests.chaos.servers import postgres
from tests.live import ROOT, database_url, live_service
from tests.orders.helpers import element, order_body

pytestmark = [pytest.mark.chaos, pytest.mark.django_db(transaction=True)]


def test_a_postgresql_restart_under_load_loses_no_order(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    with postgres(copy_of=database_url()) as database:
        env = {
            "DATABASE_URL": database.url,
            "REDIS_URL": "",  # the database is the broker too
            "TRANSFORMSVC_QUEUE_LEASE": "2",
            "TRANSFORMSVC_HEARTBEAT_SECONDS": "1",
            "TRANSFORMSVC_ORDER_TIMEOUT": "8",
            "TRANSFORMSVC_RECOVERY_GRACE": "1",
        }
        with live_service(tmp_path / "live", extra_env=env) as service:
            doc = service.upload(make_pdf(3))
            answers: list[tuple[int, float, str]] = []
            stop = threading.Event()

            def order_steadily() -> None:
                n = 0
                while not stop.is_set():
                    n += 1
                    started = time.monotonic()
                    try:
                        response = requests.post(
                            service.base + "/transformations",
                            json=order_body([element(doc, (n % 3 + 1, 3))]),
                            timeout=10,
                        )
                    except requests.RequestException as exc:
                        answers.append((0, time.monotonic() - started, str(exc)))
                        continue
                    answers.append(
                        (
                            response.status_code,
                            time.monotonic() - started,
                            response.text[:200],
                        )
                    )
                    time.sleep(0.1)

            clients = [threading.Thread(target=order_steadily) for _ in range(2)]
            for client in clients:
                client.start()
            time.sleep(0.5)
            database.crash()
            time.sleep(1.5)  # down: requests answer 503, workers' writes wait
            database.start()
            time.sleep(1)
            stop.set()
            for client in clients:
                client.join()

            statuses = {status for status, _, _ in answers}
            assert statuses <= {200, 503}, [
                a for a in answers if a[0] not in (200, 503)
            ]
            slow = [a for a in answers if a[1] >= 2]
            assert not slow, slow
            assert 503 in statuses and 200 in statuses, "the outage was seen, and ended"

            with psycopg.connect(database.url) as db:
                every = [
                    row[0]
                    for row in db.execute("SELECT id FROM orders_transformationorder")
                ]
            deadline = time.monotonic() + 30
            for order_id in every:
                final = service.wait_until_final(
                    order_id, timeout=max(1.0, deadline - time.monotonic())
                )
                assert final["currentState"] == "PROCESSED" or final["errorMessage"]
            with psycopg.connect(database.url) as db:
                attempts = [
                    row[0]
                    for row in db.execute(
                        "SELECT attempts FROM orders_transformationorder"
                    )
                ]
            assert attempts and set(attempts) == {1}, attempts

            drift = subprocess.run(
                [sys.executable, "manage.py", "reconcile", "--dry-run"]
                + ["--grace-minutes", "0"],
                cwd=ROOT,
                env=service.env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            assert "files without rows: 0" in drift, drift
            assert "rows without files: 0" in drift, drift
