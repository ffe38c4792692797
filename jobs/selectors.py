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
    """A visible order of `model`'s kind; 404 names the kind ("no comparison order")."""
    try:
        return orders_visible(model, owner_id).get(pk=order_id)
    except model.DoesNotExist:
        raise NotFound(f"no {model._meta.verbose_name} with id {order_id!r}") from None


def orders_list(
    model: type[M], owner_id: int | None, *, state: str | None = None
) -> QuerySet[M]:
    """Newest first; `state` narrows to one state."""
    qs = orders_visible(model, owner_id).order_by("-queued_at", "-id")
    return qs.filter(state=state) if state else qs
