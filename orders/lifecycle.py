"""State changes shared by every kind of order, each one a conditional UPDATE."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from orders.base import OrderBase
from orders.notify import notify_final
from orders.states import State
from transformsvc.problems import TooManyRequests


def ensure_capacity() -> None:
    """Refuse new orders while the queue is full (429) or the disk is short (503)."""
    from comparisons.models import ComparisonOrder
    from documents.services import ensure_disk_space
    from orders.models import TransformationOrder

    ensure_disk_space()
    limit = int(settings.TRANSFORMSVC["MAX_QUEUED"])
    queued = sum(
        model.objects.filter(state=State.QUEUED).count()
        for model in (TransformationOrder, ComparisonOrder)
    )
    if queued >= limit:
        raise TooManyRequests(
            f"{queued} orders are waiting, the limit is {limit}; try again later",
            headers={"Retry-After": "30"},
        )


def claim(model: type[OrderBase], order_id: str) -> bool:
    """QUEUED → PROCESSING, only if nobody claimed the order before us."""
    return bool(
        model.objects.filter(pk=order_id, state=State.QUEUED).update(
            state=State.PROCESSING,
            started_at=timezone.now(),
            attempts=F("attempts") + 1,
        )
    )


def finish(model: type[OrderBase], order_id: str, **fields: Any) -> bool:
    """PROCESSING → a final state, only if the order is still there and still ours."""
    done = model.objects.filter(pk=order_id, state=State.PROCESSING).update(
        processed_at=timezone.now(), **fields
    )
    notify_final(order_id)
    return bool(done)


def fail(model: type[OrderBase], order_id: str, message: str) -> bool:
    return finish(model, order_id, state=State.FAILED, error_message=message)


INTERNAL_ERROR = (
    "the order failed because of an internal error; it has been logged for "
    "the operators"
)


def timed_out_message() -> str:
    return f"timed out after {settings.TRANSFORMSVC['ORDER_TIMEOUT']} s"
