"""Writes on orders of any kind that are not state changes of the lifecycle:
deleting (a mark, so reports keep the order), cancelling, retrying."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models, transaction
from django.utils import timezone

from jobs import lifecycle, selectors
from jobs.ids import new_order_id
from jobs.models import OrderBase, OrderInput
from jobs.notify import notify_final
from jobs.registry import kind_of
from jobs.states import FINAL_STATES, State
from jobs.tasks import enqueue_on_commit
from transformsvc.problems import InvalidInput

M = TypeVar("M", bound=OrderBase)

# OrderBase's own fields that a retry starts afresh (the request fields are the
# kind's own, copied as they are).
_FRESH = frozenset(
    {
        "id",
        "state",
        "error_message",
        "error_category",
        "queued_at",
        "dispatched_at",
        "started_at",
        "processed_at",
        "attempts",
        "page_count",
        "output_bytes",
        "retry_of",
        "deleted_at",
    }
)


def order_delete(
    model: type[OrderBase],
    *,
    order_id: str,
    owner_id: int | None = None,
    delete_results: bool = False,
) -> None:
    """Delete a visible order (404 when there is none), as the API's DELETE does;
    with `delete_results`, the documents it made too (kept by default, as the
    original keeps them)."""
    order = selectors.order_get(model, order_id, owner_id)
    if order_remove(order) and delete_results:
        results_delete(order)


def orders_delete_all(
    model: type[OrderBase],
    *,
    owner_id: int | None = None,
    delete_results: bool = False,
) -> int:
    """Delete every visible order of `model`'s kind, as `order_delete` does one;
    the number deleted."""
    deleted = 0
    for order in selectors.orders_visible(model, owner_id):
        if order_remove(order):
            deleted += 1
            if delete_results:
                results_delete(order)
    return deleted


def results_delete(order: OrderBase) -> int:
    """Delete the documents `order` made (its kind knows which); how many. An
    order still running makes none: its worker discards what it makes."""
    hook = kind_of(type(order)).delete_results
    return hook(order) if hook is not None else 0


def order_remove(order: OrderBase) -> bool:
    """Mark `order` deleted: it is gone for the API and the workers (a queued one is
    thereby cancelled; a running one is ended by its worker, which discards the
    result), and its report row stays. False if it was deleted already."""
    done = type(order).objects.filter(pk=order.pk).update(deleted_at=timezone.now())
    if done:
        _removed(order)
    return bool(done)


def order_cancel(order: OrderBase) -> bool:
    """Delete `order` only if it is still QUEUED (no worker has it); False if not."""
    done = (
        type(order)
        .objects.filter(pk=order.pk, state=State.QUEUED)
        .update(deleted_at=timezone.now())
    )
    if done:
        _removed(order)
    return bool(done)


def _removed(order: OrderBase) -> None:
    notify_final(order.pk)  # long polls on it answer 404 at once
    if order.state not in FINAL_STATES:
        # It will never end for its kind: what waits on it must hear so.
        lifecycle.failed_hook(
            type(order), order.pk, "its order was deleted before it ended"
        )


def _request_values(order: OrderBase) -> dict[str, Any]:
    """The fields that make `order`'s request: the kind's own fields except its
    results (`result_fields`, and every foreign key the kind adds), plus owner and
    input totals."""
    model = type(order)
    values = {}
    for field in model._meta.concrete_fields:
        if field.name in _FRESH or field.name in model.result_fields:
            continue
        if isinstance(field, models.ForeignKey) and field.name != "owner":
            continue
        values[field.attname] = getattr(order, field.attname)
    return values


def order_retry(order: M) -> M:
    """A new QUEUED order with the request of FAILED `order`, linked to it
    (`retry_of`), its inputs recorded again; queued for a worker on commit."""
    if order.state != State.FAILED or order.deleted_at is not None:
        raise InvalidInput(f"order {order.pk} is not a failed order; only those retry")

    lifecycle.ensure_capacity()
    model = type(order)
    kind = kind_of(model)
    with transaction.atomic():
        retry = model.objects.create(
            id=new_order_id(order.id_suffix()),
            retry_of=order,
            **_request_values(order),
        )
        OrderInput.objects.bulk_create(
            OrderInput(
                kind=kind.name,
                order_id=retry.pk,
                document_id=used.document_id,
                position=used.position,
                pages=used.pages,
                bytes=used.bytes,
                queued_at=retry.queued_at,
            )
            for used in OrderInput.objects.filter(kind=kind.name, order_id=order.pk)
        )
        enqueue_on_commit(kind.task, retry.pk, kind.queue_of(retry))
    return retry
