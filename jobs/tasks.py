"""Queueing an order's task for the workers, once its row is committed.

The database is the queue's truth: an order is owed a run from the moment its
QUEUED row commits. Pushing its task to the broker is how it usually gets one,
but a push may fail (the broker restarting) or a pushed task may be lost (a
Redis without persistence restarted, a worker killed with tasks it had taken).
`jobs.dispatch` pushes again what the broker lost; claims stay conditional
UPDATEs, so a task pushed twice still runs its order once.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django_q.tasks import async_task

from jobs.queues import MAIN, cluster_of

logger = logging.getLogger(__name__)


def push(task: str, order_id: str, queue: str = MAIN) -> bool:
    """Hand `task(order_id)` to the broker of `queue` now; False (logged) when the
    broker did not take it: the order stays QUEUED and is pushed again later."""
    try:
        async_task(
            task,
            order_id,
            task_name=f"{task}:{order_id}"[:100],
            cluster=cluster_of(queue),
        )
    except Exception as exc:
        logger.warning("could not queue %s for %s: %s", task, order_id, exc)
        return False
    return True


def enqueue_on_commit(task: str, order_id: str, queue: str = MAIN) -> None:
    """Queue `task(order_id)` on `queue` once the current transaction has committed."""
    transaction.on_commit(lambda: push(task, order_id, queue))
