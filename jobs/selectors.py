"""Reads on orders of any kind, scoped to the caller's owner when auth is on."""

from __future__ import annotations

from typing import TypeVar, cast

from django.db.models import QuerySet

from accounts.auth import owned
from jobs.models import OrderBase
from transformsvc.problems import NotFound

M = TypeVar("M", bound=OrderBase)


def orders_visible(model: type[M], owner_id: int | None) -> QuerySet[M]:
    """Orders the caller may read: not deleted (the default manager, `objects`,
    leaves deleted orders out), and the caller's own when auth is on."""
    live = cast("QuerySet[M]", model._default_manager.all())
    return owned(live, owner_id)


def order_get(model: type[M], order_id: str, owner_id: int | None = None) -> M:
    """A visible order of `model`'s kind; 404 names the kind ("no comparison
    order"), and says so when the order was deleted or cancelled, and when (the
    original's clients expect a 404 for them)."""
    try:
        return orders_visible(model, owner_id).get(pk=order_id)
    except model.DoesNotExist:
        pass
    noun = model._meta.verbose_name
    gone = (
        owned(model.history.all(), owner_id)
        .filter(pk=order_id, deleted_at__isnull=False)
        .values_list("deleted_at", "processed_at")
        .first()
    )
    if gone is None:
        raise NotFound(f"no {noun} with id {order_id!r}")
    deleted_at, processed_at = gone
    how = (
        "deleted" if processed_at is not None else "cancelled (deleted before it ended)"
    )
    raise NotFound(
        f"{noun} {order_id!r} was {how} on {deleted_at:%Y-%m-%d at %H:%M:%S} UTC",
        code="order_deleted",
    )


def orders_list(
    model: type[M], owner_id: int | None, *, state: str | None = None
) -> QuerySet[M]:
    """Newest first; `state` narrows to one state."""
    qs = orders_visible(model, owner_id).order_by("-queued_at", "-id")
    return qs.filter(state=state) if state else qs
