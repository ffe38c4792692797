"""Idempotency-Key: a retried create call gets the first answer, and the work is
done once, for JSON orders and for streamed uploads alike."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from accounts.keys import apikey_create
from documents.models import Document
from orders.models import TransformationOrder
from tests.live import live_service
from tests.orders.helpers import element, order_body


def post_json(client: Any, path: str, body: Any, key: str, **extra: Any) -> Any:
    return client.post(
        path,
        data=body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        **extra,
    )


def upload(client: Any, data: bytes, key: str, **extra: Any) -> Any:
    return client.post(
        "/documents?documentTitle=t",
        data=data,
        content_type="application/octet-stream",
        HTTP_IDEMPOTENCY_KEY=key,
        **extra,
    )


def test_a_retried_order_gets_the_first_answer_and_is_made_once(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    body = order_body([element(uploaded(make_pdf(2)), (1, 2))])
    first = post_json(client, "/transformations", body, "k-1")
    # The same JSON, keys in another order: the same request.
    again = post_json(client, "/transformations", dict(reversed(body.items())), "k-1")
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert TransformationOrder.objects.count() == 1

    other = post_json(client, "/transformations", {**body, "format": "zip"}, "k-1")
    assert other.status_code == 422
    assert other["Content-Type"] == "application/problem+json"
    assert "different request" in other.json()["detail"]
    assert post_json(client, "/transformations", body, "k-2").status_code == 200
    assert TransformationOrder.objects.count() == 2


def test_a_retried_upload_stores_the_document_once(
    client: Any, make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(3)
    first = upload(client, data, "up-1")
    again = upload(client, data, "up-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Location"] == first["Location"]
    assert Document.objects.count() == 1
    assert upload(client, make_pdf(4), "up-1").status_code == 422
    assert Document.objects.count() == 1


def test_an_error_is_not_kept_and_keys_belong_to_their_owner(
    client: Any, settings: Any, make_pdf: Callable[..., bytes]
) -> None:
    bad = order_body([element("no-such-document")])
    assert post_json(client, "/transformations", bad, "e-1").status_code == 400
    settings.TRANSFORMSVC_AUTH = "token"
    keys = [apikey_create(owner_name=name)[1] for name in ("ann", "bob")]
    ids = [
        upload(
            client, make_pdf(1), "shared", HTTP_AUTHORIZATION=f"Bearer {key}"
        ).json()["id"]
        for key in keys
    ]
    assert ids[0] != ids[1], "one key name, two owners, two documents"


def test_an_expired_key_does_the_work_again(
    client: Any, settings: Any, make_pdf: Callable[..., bytes]
) -> None:
    settings.SERVICE = replace(settings.SERVICE, idempotency_ttl=0)
    data = make_pdf(1)
    assert upload(client, data, "old").json() != upload(client, data, "old").json()


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_do_the_work_once(
    tmp_path: Path, make_pdf: Callable[..., bytes]
) -> None:
    with live_service(tmp_path / "live", start_worker=False) as service:
        doc = service.upload(make_pdf(2))
        body = order_body([element(doc, (1, 2))])
        answers: list[Any] = []

        def post() -> None:
            answers.append(
                service.post(
                    "/transformations", json=body, headers={"Idempotency-Key": "race"}
                )
            )

        clients = [threading.Thread(target=post) for _ in range(12)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
    statuses = sorted({a.status_code for a in answers})
    assert set(statuses) <= {200, 409}, statuses
    made = {a.json()["transformationOrderId"]["id"] for a in answers if a.ok}
    assert len(made) == 1, "every 200 names the same order"
    assert TransformationOrder.objects.count() == 1
    assert all(a.headers.get("Retry-After") for a in answers if a.status_code == 409)


def test_comparisons_and_conversions_are_idempotent_too(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    from comparisons.models import ComparisonOrder
    from conversions.models import ConversionOrder

    doc = uploaded(make_pdf(1))
    for path, body, model in [
        (
            "/comparisons",
            {"leftDocumentId": doc, "rightDocumentId": doc},
            ComparisonOrder,
        ),
        ("/conversions", {"documentId": doc, "format": "txt"}, ConversionOrder),
    ]:
        first = post_json(client, path, body, f"{path}-key")
        again = post_json(client, path, body, f"{path}-key")
        assert first.status_code == again.status_code == 200
        assert again.content == first.content
        assert model._default_manager.count() == 1
