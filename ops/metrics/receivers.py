"""Orders created and ended, and documents received, as counters and histograms.

Orders are counted from signals, so that neither `jobs` nor the order apps know
about metrics: a new order is any OrderBase row inserted (counted once its
transaction commits), an ended one is `jobs.signals.order_ended`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from jobs import registry
from jobs.models import OrderBase
from jobs.signals import order_ended
from transformsvc.metrics import (
    ORDER_PROCESSING,
    ORDER_QUEUED,
    ORDERS_CREATED,
    ORDERS_ENDED,
    UPLOAD_BYTES,
)

logger = logging.getLogger(__name__)


def format_label(order: Any) -> str:
    """The order's format (transformations, conversions); "none" for kinds without."""
    return str(getattr(order, "format", "") or "none")


def kind_label(model: type[OrderBase]) -> str:
    kind = registry.find(model)
    return kind.name if kind is not None else str(model._meta.model_name)


def _order_saved(
    sender: type[Any], instance: Any, created: bool = False, **kwargs: Any
) -> None:
    if not created or not isinstance(instance, OrderBase):
        return
    labels = (kind_label(type(instance)), format_label(instance))
    transaction.on_commit(lambda: ORDERS_CREATED.labels(*labels).inc())


def _order_ended(
    sender: type[OrderBase], *, kind: str, order_id: str, state: str, **kwargs: Any
) -> None:
    order = sender._default_manager.filter(pk=order_id).first()
    if order is None:
        return
    if order.started_at is not None:
        ORDER_QUEUED.labels(kind).observe(
            (order.started_at - order.queued_at).total_seconds()
        )
        if order.processed_at is not None:
            ORDER_PROCESSING.labels(kind, state).observe(
                (order.processed_at - order.started_at).total_seconds()
            )
    # Last: a scrape that counts the order ended also finds its durations.
    ORDERS_ENDED.labels(kind, format_label(order), state).inc()


def document_received(size: int, origin: str) -> None:
    """A document's bytes arrived (an upload, a documentUrl fetch)."""
    UPLOAD_BYTES.labels(origin.lower()).observe(size)


def connect() -> None:
    post_save.connect(_order_saved, dispatch_uid="metrics-order-created")
    order_ended.connect(_order_ended, dispatch_uid="metrics-order-ended")
