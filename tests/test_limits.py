"""Limits answer with clear problems: 413, 429 and 503 with Retry-After."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from orders.models import TransformationOrder
from tests.orders.helpers import element, order_body


def limit(settings: Any, **values: Any) -> None:
    settings.SERVICE = replace(
        settings.SERVICE, **{name.lower(): value for name, value in values.items()}
    )


def test_upload_over_the_size_limit_is_413(
    settings: Any, upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(3)
    limit(settings, MAX_UPLOAD_BYTES=len(data) - 1)
    response = upload(data)
    assert response.status_code == 413
    assert str(len(data) - 1) in response.json()["detail"]


def test_document_over_the_page_limit_is_415(
    settings: Any, upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    limit(settings, MAX_PAGES=2)
    response = upload(make_pdf(3))
    assert response.status_code == 415 and "3 pages" in response.json()["detail"]


def test_a_full_queue_answers_429_with_retry_after(
    settings: Any,
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    doc = uploaded(make_pdf(1))
    limit(settings, MAX_QUEUED=1)
    TransformationOrder.objects.create(id="waiting", format="pdf", request={})
    response = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert response["Content-Type"].startswith("application/problem+json")


def test_short_disk_answers_503_with_retry_after(
    settings: Any, upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    limit(settings, MIN_FREE_DISK=1 << 60)
    response = upload(make_pdf(1))
    assert response.status_code == 503 and response["Retry-After"] == "60"


def test_too_many_outputs_elements_or_annotations_are_400(
    settings: Any,
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    doc = uploaded(make_pdf(1))
    limit(settings, MAX_OUTPUTS=1, MAX_ELEMENTS=2, MAX_ANNOTATIONS=0)
    outputs = client.post(
        "/transformations",
        content_type="application/json",
        data=order_body([element(doc)], [element(doc)]),
    )
    assert (
        outputs.status_code == 400
        and "transformationDetails" in outputs.json()["errors"]
    )
    annotations = client.post(
        "/transformations",
        content_type="application/json",
        data=order_body(
            [element(doc)],
            annotations=[
                {
                    "type": "SquareElemType",
                    "documentId": doc,
                    "page": 0,
                    "position": {"x": 1, "y": 1, "w": 1, "h": 1},
                }
            ],
        ),
    )
    assert annotations.status_code == 400
