"""State changes shared by every kind of order, each one a conditional UPDATE.

No document work happens in a transaction here: `run` claims the order, lets the
kind's `build` work outside any transaction, then ends the order in one UPDATE.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db.models import F
from django.utils import timezone
from django_q.exceptions import TimeoutException

from jobs import registry
from jobs.errors import Category, category_of, failure_fields, without_paths
from jobs.models import OrderBase
from jobs.notify import notify_final
from jobs.signals import send_order_ended
from jobs.states import State
from jobs.transient import BUILD_PAUSES, WRITE_PAUSES, is_transient, retrying
from transformsvc.conf import service
from transformsvc.problems import TooManyRequests, is_user_facing

logger = logging.getLogger(__name__)

INTERNAL_ERROR = (
    "the order failed because of an internal error; it has been logged for "
    "the operators"
)
PASSING_FAULT = (
    "the order failed on a passing fault (the database, the queue or the file "
    "store did not answer, or the disk was full) after several attempts; retry it"
)


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Outcome:
    """What a successful build hands back: the fields stored with PROCESSED, and
    how to discard its result when the order is gone by the time it ends."""

    fields: dict[str, Any]
    discard: Callable[[], None] = field(default=_nothing)


def ensure_capacity() -> None:
    """Refuse new orders while the queue is full (429), counting every kind."""
    limit = service().max_queued
    waiting = [
        kind.model.objects.filter(state=State.QUEUED).values("pk")
        for kind in registry.kinds()
    ]
    # One round trip for every kind (a UNION ALL), not one per kind.
    queued = waiting[0].union(*waiting[1:], all=True).count() if waiting else 0
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
    """PROCESSING → a final state, only if the order is still ours. True when the
    order is still there; an order deleted while it ran is ended all the same (its
    report row says how it went), and False tells the caller to discard its result."""
    ended = {"processed_at": timezone.now(), **fields}
    done = model.objects.filter(pk=order_id, state=State.PROCESSING).update(**ended)
    if not done:
        model.history.filter(
            pk=order_id, state=State.PROCESSING, deleted_at__isnull=False
        ).update(**ended)
    notify_final(order_id)
    if done:
        announce_end(model, order_id, str(fields.get("state", "")))
    return bool(done)


def announce_end(model: type[OrderBase], order_id: str, state: str) -> None:
    """Send `jobs.signals.order_ended` for an order whose ending UPDATE succeeded."""
    kind = registry.find(model)
    name = kind.name if kind is not None else model._meta.model_name or ""
    send_order_ended(model, kind=name, order_id=order_id, state=state)


def fail(
    model: type[OrderBase],
    order_id: str,
    message: str,
    category: str | None = None,
) -> bool:
    """PROCESSING → FAILED with `message` (and its `category`, else the one its
    text suggests); the kind's `on_failed` hears of it."""
    failed = finish(
        model, order_id, state=State.FAILED, **failure_fields(message, category)
    )
    if failed:
        failed_hook(model, order_id, message)
    return failed


def failed_hook(model: type[OrderBase], order_id: str, message: str) -> None:
    """Tell the kind of `model` that the machinery failed one of its orders; a hook
    that fails itself is logged, never raised (the order has ended already)."""
    kind = registry.find(model)
    if kind is None or kind.on_failed is None:
        return
    try:
        kind.on_failed(order_id, message)
    except Exception:
        logger.exception("on_failed of %s order %s failed", kind.name, order_id)


M = TypeVar("M", bound=OrderBase)


def run(model: type[M], order_id: str, build: Callable[[M], Outcome]) -> None:
    """Worker side of every order: claim it, build its result outside transactions,
    then end it PROCESSED with the fields `build` returns, or FAILED with a message a
    user can act on. A result made for an order deleted meanwhile is discarded."""
    if not claim(model, order_id):
        return  # another worker has it, or it was deleted or recovered meanwhile
    what = f"{model.__name__} {order_id}"
    try:
        # Claimed: from here a passing fault must not end the task, or the order
        # would wait in PROCESSING for its recovery (the order timeout).
        order = retrying(lambda: model.objects.get(pk=order_id), WRITE_PAUSES, what)
    except model.DoesNotExist:
        return  # deleted between the claim and the read: nothing to do
    try:
        outcome = retrying(lambda: build(order), BUILD_PAUSES, what)
    except TimeoutException:  # django-q2's, a SystemExit: fail the order, let it go on
        fail(model, order_id, timed_out_message(), Category.TIMEOUT)
        raise
    except Exception as exc:
        category: str | None
        if is_transient(exc):
            message, category = PASSING_FAULT, Category.PASSING_FAULT
        elif is_user_facing(exc):
            message, category = without_paths(str(exc)), category_of(exc)
        else:
            logger.exception("%s failed unexpectedly", what)
            message, category = INTERNAL_ERROR, Category.INTERNAL
        retrying(lambda: fail(model, order_id, message, category), WRITE_PAUSES, what)
        return
    ended = retrying(
        lambda: finish(
            model,
            order_id,
            state=State.PROCESSED,
            error_message=None,
            error_category=None,
            **outcome.fields,
        ),
        WRITE_PAUSES,
        what,
    )
    if not ended:
        outcome.discard()


def timed_out_message() -> str:
    return f"timed out after {service().order_timeout} s"
