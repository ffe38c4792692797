"""No hostile file leaves an order unfinished, in any output format, and a real
worker keeps working after all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orders.models import TransformationOrder
from tests.documents.hostile.build import (
    _base,
    bomb_in_content,
    malformed,
    nested_arrays_in_content,
    nested_arrays_in_page,
    truncated,
    with_embedded_files,
    with_javascript,
)
from tests.documents.hostile.helpers import deadline
from tests.orders.helpers import element, order_body


def test_no_hostile_file_leaves_an_order_unfinished(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    """Whatever passed upload ends PROCESSED or FAILED, in every output format."""
    usable = [with_javascript(), with_embedded_files(), nested_arrays_in_content()]
    for data in usable:
        doc = upload(data).json()["id"]
        for fmt in ("pdf", "pdf-fdf", "zip"):
            with deadline(30):
                order = run_order(order_body([element(doc)], fmt=fmt))
            assert order["currentState"] in ("PROCESSED", "FAILED"), order
    assert not TransformationOrder.objects.exclude(
        state__in=["PROCESSED", "FAILED"]
    ).exists()


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_survives_every_hostile_file_and_keeps_working(
    tmp_path: Path,
) -> None:
    """gunicorn + qcluster: hostile uploads and orders end, and the worker still
    processes the next ordinary order."""
    from tests.live import live_service

    octet = {"Content-Type": "application/octet-stream"}
    refused = [malformed(), truncated(), bomb_in_content(), nested_arrays_in_page()]
    usable = [with_javascript(), with_embedded_files(), nested_arrays_in_content()]
    with live_service(tmp_path / "live") as service:
        worker = service.processes["worker"]
        for data in refused:
            with deadline(15):
                assert (
                    service.post("/documents", data=data, headers=octet).status_code
                    == 415
                )
        for data in usable:
            doc = service.post("/documents", data=data, headers=octet).json()["id"]
            redaction = {
                "type": "com.example.RedactElemType",
                "documentId": doc,
                "page": 0,
                "position": {"x": 60, "y": 100, "w": 200, "h": 40},
            }
            for annotations in (None, [redaction]):
                body = order_body([element(doc)], annotations=annotations)
                order = service.post("/transformations", json=body).json()
                final = service.wait_until_final(
                    order["transformationOrderId"]["id"], 60
                )
                assert final["currentState"] in ("PROCESSED", "FAILED"), final
        assert worker.poll() is None, "the qcluster died"
        plain = service.post("/documents", data=_base(2), headers=octet).json()["id"]
        order = service.post(
            "/transformations", json=order_body([element(plain)])
        ).json()
        final = service.wait_until_final(order["transformationOrderId"]["id"], 60)
        assert final["currentState"] == "PROCESSED", final["errorMessage"]
