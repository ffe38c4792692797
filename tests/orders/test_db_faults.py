"""The database connection lost and restored: the service recovers by itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from tests.live import live_service
from tests.orders.helpers import element, order_body


def cut_every_other_connection() -> int:
    """Terminate every session on the test database but ours (like a DB restart)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_web_and_worker_recover_after_their_connections_are_cut(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    with live_service(tmp_path / "live") as service:
        octet = {"Content-Type": "application/octet-stream"}
        doc = service.post("/documents", data=make_pdf(2), headers=octet).json()["id"]
        first = service.post(
            "/transformations", json=order_body([element(doc, (2, 2))])
        )
        assert (
            service.wait_until_final(first.json()["transformationOrderId"]["id"])[
                "currentState"
            ]
            == "PROCESSED"
        )

        assert cut_every_other_connection() >= 2
        statuses = [
            service.get(f"/documents/{doc}/layout").status_code for _ in range(5)
        ]
        assert statuses == [200] * 5, statuses  # health checks reconnect before use
        assert service.get(f"/documents/{doc}/layout").status_code == 200

        again = service.post(
            "/transformations", json=order_body([element(doc, (1, 1))])
        )
        assert again.status_code == 200, again.text
        final = service.wait_until_final(again.json()["transformationOrderId"]["id"])
        assert final["currentState"] == "PROCESSED", final["errorMessage"]
