"""Orders a killed worker left in PROCESSING are re-queued once, then failed."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from jobs import registry
from jobs.errors import failure_fields
from jobs.lifecycle import announce_end, failed_hook
from jobs.notify import notify_final
from jobs.states import State
from jobs.tasks import enqueue_on_commit

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2


def reap_stale_orders() -> int:
    """Recover orders of every kind stuck in PROCESSING past the order timeout;
    returns how many."""
    timeout = int(settings.TRANSFORMSVC["ORDER_TIMEOUT"])
    # A little grace beyond django-q2's own timeout, which fails the order itself.
    cutoff = timezone.now() - timedelta(
        seconds=timeout + settings.TRANSFORMSVC["RECOVERY_GRACE"]
    )
    recovered = 0
    for kind in registry.kinds():
        model = kind.model
        stale = model.objects.filter(state=State.PROCESSING, started_at__lt=cutoff)
        for order_id, attempts in stale.values_list("id", "attempts"):
            if attempts < MAX_ATTEMPTS:
                with transaction.atomic():
                    moved = model.objects.filter(
                        pk=order_id, state=State.PROCESSING, started_at__lt=cutoff
                    ).update(state=State.QUEUED, started_at=None)
                    if moved:
                        enqueue_on_commit(kind.task, order_id)
            else:
                message = (
                    f"the order did not finish within {timeout} s "
                    f"after {attempts} attempts (its worker stopped)"
                )
                moved = model.objects.filter(
                    pk=order_id, state=State.PROCESSING
                ).update(
                    state=State.FAILED,
                    processed_at=timezone.now(),
                    **failure_fields(message),
                )
                if moved:
                    notify_final(order_id)
                    announce_end(model, order_id, State.FAILED)
                    failed_hook(model, order_id, message)
            if moved:
                recovered += 1
                logger.warning(
                    "recovered stale %s order %s (attempt %s)",
                    kind.name,
                    order_id,
                    attempts,
                )
    return recovered
