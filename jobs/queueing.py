"""Creating an order of any kind: admitted (disk, queue capacity), saved QUEUED
with the documents it takes, and queued for a worker once committed.

A kind calls `order_queue` from its create service with its own fields; the
row, its inputs and the queueing commit together, in the caller's transaction
when there is one (a document and its conversion are stored as one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import transaction

from jobs import inputs, lifecycle
from jobs.ids import new_order_id
from jobs.models import OrderBase
from jobs.registry import kind_of
from jobs.tasks import enqueue_on_commit
from transformsvc.disk import ensure_disk_space

M = TypeVar("M", bound=OrderBase)


def admit() -> None:
    """Refuse a new order while the disk is short (503) or the queue full (429)."""
    ensure_disk_space()
    lifecycle.ensure_capacity()


def order_queue(
    model: type[M],
    *,
    owner_id: int | None,
    uses: Sequence[inputs.InputUse] = (),
    callback_url: str | None = None,
    id_suffix: str = "",
    **fields: Any,
) -> M:
    """Save a QUEUED order of `model`'s kind with `fields` (its own request) and
    the documents it takes (`uses`), and queue it for a worker on commit."""
    with transaction.atomic():
        order = model.objects.create(
            id=new_order_id(id_suffix),
            owner_id=owner_id,
            callback_url=callback_url,
            **inputs.totals(uses),
            **fields,
        )
        inputs.record(order, uses)
        kind = kind_of(model)
        enqueue_on_commit(kind.task, order.id, kind.queue_of(order))
    return order
