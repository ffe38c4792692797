"""Reads on comparison orders, scoped to the caller's owner when auth is on."""

from __future__ import annotations

from django.db.models import QuerySet

from comparisons.models import ComparisonOrder
from documents.selectors import auth_enabled
from transformsvc.problems import NotFound


def comparisons_visible(owner_id: int | None) -> QuerySet[ComparisonOrder]:
    qs = ComparisonOrder.objects.all()
    return qs.filter(owner_id=owner_id) if auth_enabled() else qs


def comparison_get(order_id: str, owner_id: int | None = None) -> ComparisonOrder:
    try:
        return comparisons_visible(owner_id).get(pk=order_id)
    except ComparisonOrder.DoesNotExist:
        raise NotFound(f"no comparison order with id {order_id!r}") from None
