"""Webhooks: a delivery made when an order ends, and its attempts.

The delivery is created by the process that ended the order (a worker, or a
worker's recovery thread), never by a request; its attempts run in the workers:
the first as a task queued at once, the retries by each worker's dispatcher
thread (`dispatcher`). An attempt is claimed by a conditional UPDATE, so that
one delivery is never POSTed twice at once, by any process of any node.

Retries: exponential backoff from WEBHOOK_BACKOFF seconds, doubling up to
WEBHOOK_BACKOFF_MAX, each delay jittered by ±25 %, until WEBHOOK_GIVE_UP
seconds after the order ended (then FAILED). With the defaults (30 s, 4 h,
24 h): 30 s, 1, 2, 4, 8, 16, 32 min, 1 h 4, 2 h 8, then every 4 h: about 14
attempts over a day.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django_q.tasks import async_task
from rest_framework.renderers import JSONRenderer

from engines import fetch
from jobs import registry
from jobs.models import OrderBase
from transformsvc.conf import service
from transformsvc.metrics import WEBHOOK_ATTEMPTS
from webhooks.models import Attempt, Delivery
from webhooks.signing import secret_for, signed_headers

logger = logging.getLogger(__name__)

TASK = "webhooks.tasks.deliver"


def next_delay(attempt: int) -> float:
    """Seconds before the attempt after the `attempt`-th (counted from 1)."""
    base = service().webhook_backoff * 2 ** min(attempt - 1, 30)
    return min(base, service().webhook_backoff_max) * random.uniform(0.75, 1.25)


def payload_of(model: type[OrderBase], order: OrderBase) -> str:
    """The order's JSON exactly as its GET answers it."""
    kind = registry.find(model)
    if kind is None or kind.serializer is None:
        raise LookupError(f"{model.__name__} registered no serializer")
    return JSONRenderer().render(kind.serializer(order).data).decode()


def on_order_ended(
    sender: type[OrderBase], *, kind: str, order_id: str, state: str, **kwargs: Any
) -> None:
    """`jobs.signals.order_ended`: a delivery for an order with a callback URL."""
    order = sender._default_manager.filter(pk=order_id).first()
    if order is None or not order.callback_url:
        return
    with transaction.atomic():
        delivery = Delivery.objects.create(
            id=f"msg_{uuid.uuid4().hex}",
            owner_id=order.owner_id,
            kind=kind,
            order_id=order_id,
            url=order.callback_url,
            payload=payload_of(sender, order),
        )
        transaction.on_commit(lambda: async_task(TASK, delivery.pk))


def deliver(delivery_id: str) -> None:
    """One attempt of a delivery that is due, unless another process claimed it."""
    now = timezone.now()
    lease = timedelta(seconds=service().webhook_timeout * 3 + 30)
    claimed = Delivery.objects.filter(
        pk=delivery_id, state=Delivery.State.PENDING, next_attempt_at__lte=now
    ).update(attempts=F("attempts") + 1, next_attempt_at=now + lease)
    if not claimed:
        return
    delivery = Delivery.objects.get(pk=delivery_id)
    status, head, error, latency_ms = _post(delivery)
    Attempt.objects.create(
        delivery=delivery,
        number=delivery.attempts,
        status=status,
        latency_ms=latency_ms,
        response_head=head,
        error=error,
    )
    _settle(delivery, status)


def _post(delivery: Delivery) -> tuple[int | None, str, str, int]:
    """(status, first bytes of the answer, error, latency in ms) of one POST."""
    body = delivery.payload
    headers = {
        "Content-Type": "application/json",
        **signed_headers(
            secret_for(delivery.owner_id), delivery.id, timezone.now(), body
        ),
    }
    started = time.perf_counter()
    try:
        answer = fetch.post(
            delivery.url,
            body=body.encode(),
            headers=headers,
            allowlist=frozenset(h.lower() for h in service().url_allowlist),
            timeout=service().webhook_timeout,
        )
    except fetch.FetchRefused as exc:
        return None, "", str(exc), int((time.perf_counter() - started) * 1000)
    latency_ms = int((time.perf_counter() - started) * 1000)
    return answer.status, answer.head.decode("utf-8", "replace"), "", latency_ms


def _settle(delivery: Delivery, status: int | None) -> None:
    now = timezone.now()
    mine = Delivery.objects.filter(pk=delivery.pk, attempts=delivery.attempts)
    if status is not None and 200 <= status < 300:
        mine.update(
            state=Delivery.State.DELIVERED, delivered_at=now, last_status=status
        )
        WEBHOOK_ATTEMPTS.labels("delivered").inc()
        return
    WEBHOOK_ATTEMPTS.labels("failed" if status is not None else "refused").inc()
    due = now + timedelta(seconds=next_delay(delivery.attempts))
    if due > delivery.created_at + timedelta(seconds=service().webhook_give_up):
        mine.update(state=Delivery.State.FAILED, last_status=status)
        logger.warning(
            "webhook %s to %s given up after %s attempts",
            delivery.pk,
            delivery.url,
            delivery.attempts,
        )
    else:
        mine.update(next_attempt_at=due, last_status=status)


def deliver_due(limit: int = 20) -> int:
    """Attempt the deliveries that are due (oldest first); how many were tried."""
    due = list(
        Delivery.objects.filter(
            state=Delivery.State.PENDING, next_attempt_at__lte=timezone.now()
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in due:
        deliver(delivery_id)
    return len(due)
