"""Reads on transformation orders, scoped to the caller's owner when auth is on."""

from __future__ import annotations

from django.db.models import QuerySet

from documents.selectors import auth_enabled
from orders.models import TransformationOrder
from transformsvc.problems import NotFound


def orders_visible(owner_id: int | None) -> QuerySet[TransformationOrder]:
    qs = TransformationOrder.objects.all()
    return qs.filter(owner_id=owner_id) if auth_enabled() else qs


def order_get(order_id: str, owner_id: int | None = None) -> TransformationOrder:
    try:
        return orders_visible(owner_id).get(pk=order_id)
    except TransformationOrder.DoesNotExist:
        raise NotFound(f"no transformation order with id {order_id!r}") from None


def orders_list(
    owner_id: int | None, *, state: str | None
) -> QuerySet[TransformationOrder]:
    qs = orders_visible(owner_id).order_by("-queued_at", "-id")
    return qs.filter(state=state) if state else qs
