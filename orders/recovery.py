"""Orders a killed worker left in PROCESSING are re-queued once, then failed."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from orders.states import State

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2


def reap_stale_orders() -> int:
    """Recover orders stuck in PROCESSING past the order timeout; returns how many."""
    from comparisons.models import ComparisonOrder
    from orders import tasks
    from orders.models import TransformationOrder

    timeout = int(settings.TRANSFORMSVC["ORDER_TIMEOUT"])
    # A little grace beyond django-q2's own timeout, which fails the order itself.
    cutoff = timezone.now() - timedelta(
        seconds=timeout + settings.TRANSFORMSVC["RECOVERY_GRACE"]
    )
    recovered = 0
    for model, task in (
        (TransformationOrder, tasks.TRANSFORMATION_TASK),
        (ComparisonOrder, tasks.COMPARISON_TASK),
    ):
        stale = model.objects.filter(state=State.PROCESSING, started_at__lt=cutoff)
        for order_id, attempts in stale.values_list("id", "attempts"):
            if attempts < MAX_ATTEMPTS:
                with transaction.atomic():
                    moved = model.objects.filter(
                        pk=order_id, state=State.PROCESSING, started_at__lt=cutoff
                    ).update(state=State.QUEUED, started_at=None)
                    if moved:
                        tasks.enqueue_on_commit(task, order_id)
            else:
                moved = model.objects.filter(
                    pk=order_id, state=State.PROCESSING
                ).update(
                    state=State.FAILED,
                    processed_at=timezone.now(),
                    error_message=f"the order did not finish within {timeout} s "
                    f"after {attempts} attempts (its worker stopped)",
                )
            if moved:
                recovered += 1
                logger.warning(
                    "recovered stale order %s (attempt %s)", order_id, attempts
                )
    return recovered
