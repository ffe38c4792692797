"""What an order takes and does is recorded when it is made: one input row per
document with the pages taken, the operations as flags, refusals by reason."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from comparisons.models import ComparisonOrder
from jobs.models import OrderInput, OrderRefusal
from orders.models import TransformationOrder
from tests.orders.helpers import element, order_body

PREFIX = "com.vendor.viewer.annotation.api."


def inputs_of(order_id: str) -> list[tuple[str, int, int | None]]:
    rows = OrderInput.objects.filter(order_id=order_id).order_by("position")
    return [(r.document_id, r.position, r.pages) for r in rows]


def test_an_order_records_each_input_once_with_the_pages_it_takes(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    a, b = uploaded(make_pdf(10)), uploaded(make_pdf(4))
    body = order_body(
        [element(a, (1, 3), (5, 5)), element(b)], [element(a, (2, 2))], fmt="zip"
    )
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    order = TransformationOrder.objects.get(
        pk=response.json()["transformationOrderId"]["id"]
    )
    assert inputs_of(order.id) == [(a, 0, 5), (b, 1, 4)]
    assert (order.input_pages, order.output_count, order.merges) == (9, 2, True)
    assert order.input_bytes == sum(
        r.bytes or 0 for r in OrderInput.objects.filter(order_id=order.id)
    )
    assert (order.redacts, order.annotates, order.format) == (False, False, "zip")


def test_redaction_and_annotations_are_flags_of_the_order(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(1))
    square = {
        "type": PREFIX + "SquareElemType",
        "documentId": {"id": doc},
        "page": 0,
        "position": {"x": 10, "y": 10, "w": 20, "h": 20},
    }
    redact = {**square, "type": PREFIX + "RedactElemType"}
    for listed, flags in (([square], (False, True)), ([redact], (True, False))):
        body = order_body([element(doc)], annotations=listed)
        response = client.post(
            "/transformations", data=body, content_type="application/json"
        )
        order = TransformationOrder.objects.get(
            pk=response.json()["transformationOrderId"]["id"]
        )
        assert (order.redacts, order.annotates, order.merges) == (*flags, False)


def test_a_comparison_records_its_left_and_right_documents(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    left, right = uploaded(make_pdf(2)), uploaded(make_pdf(3))
    response = client.post(
        "/comparisons",
        data={"leftDocumentId": left, "rightDocumentId": right},
        content_type="application/json",
    )
    order = ComparisonOrder.objects.get(pk=response.json()["comparisonOrderId"]["id"])
    assert inputs_of(order.id) == [(left, 0, 2), (right, 1, 3)]
    assert order.input_pages == 5


def test_refused_order_requests_are_counted_by_reason(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(2))
    bodies = [
        order_body([element("nope")]),
        order_body([element(doc, (1, 9))]),
        {"format": "tiff", "transformationDetails": []},
    ]
    for body in bodies:
        response = client.post(
            "/transformations", data=body, content_type="application/json"
        )
        assert response.status_code == 400
    response = client.post(
        "/transformations", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    response = client.post(
        "/comparisons",
        data={"leftDocumentId": doc, "rightDocumentId": "gone"},
        content_type="application/json",
    )
    assert response.status_code == 400
    refused = [
        (r.kind, r.status, r.reason, r.field)
        for r in OrderRefusal.objects.order_by("refused_at", "id")
    ]
    assert refused == [
        (
            "transformation",
            400,
            "unknown_document",
            "transformationDetails[].transformationElements[].documentId",
        ),
        (
            "transformation",
            400,
            "page_out_of_range",
            "transformationDetails[].transformationElements[].pagesSelectionList[].maxPage",
        ),
        ("transformation", 400, "invalid_request", "format"),
        ("transformation", 400, "malformed", ""),
        ("comparison", 400, "unknown_document", "rightDocumentId"),
    ]


def test_a_full_queue_is_a_refusal_too(
    client: Any,
    settings: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    settings.SERVICE = replace(settings.SERVICE, max_queued=0)
    doc = uploaded(make_pdf(1))
    response = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert response.status_code == 429
    assert OrderRefusal.objects.get().reason == "queue_full"
