"""State changes shared by every kind of order, each one a conditional UPDATE."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django_q.exceptions import TimeoutException

from documents.models import Document
from documents.pdf.types import EngineError
from orders.base import OrderBase
from orders.notify import notify_final
from orders.states import State
from transformsvc.problems import ServiceError, TooManyRequests

logger = logging.getLogger(__name__)


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


M = TypeVar("M", bound=OrderBase)


def run(
    model: type[M],
    order_id: str,
    build: Callable[[M], tuple[Document, dict[str, Any]]],
) -> None:
    """Worker side of every order: claim it, build its result outside transactions,
    then end it PROCESSED with the fields `build` returns, or FAILED with a message a
    user can act on. A result made for an order deleted meanwhile is dropped."""
    if not claim(model, order_id):
        return
    order = model.objects.get(pk=order_id)
    try:
        result, fields = build(order)
    except (EngineError, ServiceError) as exc:
        fail(model, order_id, str(exc))
        return
    except TimeoutException:  # django-q2's, a SystemExit: fail the order, let it go on
        fail(model, order_id, timed_out_message())
        raise
    except Exception:
        logger.exception("%s %s failed unexpectedly", model.__name__, order_id)
        fail(model, order_id, INTERNAL_ERROR)
        return
    fields = {"page_count": result.page_count, "output_bytes": result.size, **fields}
    if not finish(model, order_id, state=State.PROCESSED, error_message=None, **fields):
        from documents.services import document_delete

        document_delete(document_id=result.id, owner_id=result.owner_id)


INTERNAL_ERROR = (
    "the order failed because of an internal error; it has been logged for "
    "the operators"
)


def timed_out_message() -> str:
    return f"timed out after {settings.TRANSFORMSVC['ORDER_TIMEOUT']} s"
