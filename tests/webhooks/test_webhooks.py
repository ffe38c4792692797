"""Webhooks: an order that ends is POSTed to its callback URL, signed per the
Standard Webhooks specification, retried with backoff from the workers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from standardwebhooks.webhooks import Webhook

from accounts.keys import apikey_create, webhook_secret_of
from tests.live import live_service
from tests.orders.helpers import element, order_body
from tests.webhooks.receiver import Receiver
from webhooks.models import Delivery
from webhooks.signing import instance_secret


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def loopback_allowed(settings: Any) -> None:
    settings.SERVICE = replace(settings.SERVICE, url_allowlist=["127.0.0.1"])


def test_a_callback_to_a_private_address_is_refused_when_the_order_is_made(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(1))
    for path, body in [
        ("/transformations", order_body([element(doc)])),
        ("/comparisons", {"leftDocumentId": doc, "rightDocumentId": doc}),
        ("/conversions", {"documentId": doc, "format": "txt"}),
    ]:
        body["callbackUrl"] = "http://10.0.0.7/hook"
        answer = client.post(path, data=body, content_type="application/json")
        assert answer.status_code == 400, answer.content
        assert answer["Content-Type"] == "application/problem+json"
        assert "non-public address" in answer.json()["errors"]["callbackUrl"][0]
    assert not Delivery.objects.exists()


@pytest.mark.usefixtures("loopback_allowed")
def test_a_redirect_to_a_private_address_is_not_followed(
    admin_client: Any,
    run_order: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    inside = Receiver(host="127.0.0.2")
    outside = Receiver(script=[f"307 {inside.url}"])
    try:
        body = order_body([element(uploaded(make_pdf(1)))])
        order = run_order({**body, "callbackUrl": outside.url})
        assert order["callbackUrl"] == outside.url
        delivery = Delivery.objects.get(order_id=order["transformationOrderId"]["id"])
        attempt = delivery.attempt_set.get()
        assert attempt.status is None and "non-public address" in attempt.error
        assert len(outside.received) == 1 and inside.received == []
        assert delivery.state == Delivery.State.PENDING, "retried later, in case"
        # reverse() quotes the id as the admin's own links do ("_40" is "@").
        page = admin_client.get(
            reverse("admin:webhooks_delivery_change", args=[delivery.pk])
        )
        assert page.status_code == 200
        assert b"non-public address" in page.content, "attempts show in the admin"
    finally:
        inside.close()
        outside.close()


@pytest.mark.usefixtures("loopback_allowed")
def test_a_keys_default_callback_gets_the_order_signed_with_its_owners_secret(
    client: Any,
    settings: Any,
    receiver: Receiver,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TRANSFORMSVC_AUTH = "token"
    key, plain = apikey_create(owner_name="acme", callback_url=receiver.url)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {plain}"}
    upload = client.post(
        "/documents",
        data=make_pdf(2),
        content_type="application/octet-stream",
        **auth,
    )
    doc = upload.json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post(
            "/comparisons",
            data={"leftDocumentId": doc, "rightDocumentId": doc},
            content_type="application/json",
            **auth,
        )
    order_id = made.json()["comparisonOrderId"]["id"]
    shown = client.get(f"/comparisons/{order_id}", **auth)
    assert shown.json()["callbackUrl"] == receiver.url
    [hook] = receiver.received
    assert hook.body == shown.content, "exactly what GET of the order answers"
    Webhook(webhook_secret_of(key.owner_id)).verify(hook.body, hook.headers)
    with pytest.raises(Exception, match="signature"):
        Webhook(instance_secret()).verify(hook.body, hook.headers)
    assert Delivery.objects.get().state == Delivery.State.DELIVERED


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_failing_receiver_is_retried_with_backoff_until_it_answers(
    tmp_path: Path, receiver: Receiver, make_pdf: Callable[..., bytes]
) -> None:
    receiver.script = ["500", "500", "200"]
    secret = "whsec_" + "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0"
    env = {
        "TRANSFORMSVC_URL_ALLOWLIST": "127.0.0.1",
        "TRANSFORMSVC_WEBHOOK_SECRET": secret,
        "TRANSFORMSVC_WEBHOOK_BACKOFF": "0.4",
        "TRANSFORMSVC_WEBHOOK_POLL": "0.1",
    }
    with live_service(tmp_path / "live", extra_env=env) as service:
        doc = service.upload(make_pdf(2))
        body = {**order_body([element(doc, (2, 2))]), "callbackUrl": receiver.url}
        order_id = service.post_order(body)
        final = service.wait_until_final(order_id)
        deadline = time.monotonic() + 30
        while len(receiver.received) < 3:
            assert time.monotonic() < deadline, receiver.received
            time.sleep(0.05)
        time.sleep(0.3)
        shown = service.get(f"/transformations/{order_id}")
    assert final["callbackUrl"] == receiver.url
    assert len(receiver.received) == 3, "delivered once it answered 200"
    ids = {hook.headers["webhook-id"] for hook in receiver.received}
    assert len(ids) == 1, "every attempt carries the same message id"
    for hook in receiver.received:
        assert hook.body == shown.content
        Webhook(secret).verify(hook.body, hook.headers)
    delivery = Delivery.objects.get(order_id=order_id)
    assert delivery.state == Delivery.State.DELIVERED and delivery.attempts == 3
    attempts = list(delivery.attempt_set.order_by("number"))
    assert [a.status for a in attempts] == [500, 500, 200]
    assert attempts[0].response_head == "answer 1"
    gaps = [
        (b.at - a.at).total_seconds()
        for a, b in zip(attempts, attempts[1:], strict=False)
    ]
    assert 0.3 <= gaps[0] and 0.6 <= gaps[1], f"backoff doubles: {gaps}"
