"""Orders a killed worker left in PROCESSING are re-queued once, then failed;
each kind repairs what else it must (its `recover`)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from jobs import registry
from jobs.lifecycle import fail
from jobs.states import State
from jobs.tasks import enqueue_on_commit
from transformsvc.conf import service

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2


def reap_stale_orders() -> int:
    """Recover orders of every kind stuck in PROCESSING past the order timeout;
    returns how many."""
    timeout = service().order_timeout
    # A little grace beyond django-q2's own timeout, which fails the order itself.
    cutoff = timezone.now() - timedelta(seconds=timeout + service().recovery_grace)
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
                        order = model.objects.get(pk=order_id)
                        enqueue_on_commit(kind.task, order_id, kind.queue_of(order))
            else:
                moved = fail(
                    model,
                    order_id,
                    f"the order did not finish within {timeout} s "
                    f"after {attempts} attempts (its worker stopped)",
                )
            if moved:
                recovered += 1
                logger.warning(
                    "recovered stale %s order %s (attempt %s)",
                    kind.name,
                    order_id,
                    attempts,
                )
        if kind.recover is not None:
            recovered += kind.recover()
    return recovered
