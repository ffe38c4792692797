"""Queueing an order's task for the workers, once its row is committed."""

from __future__ import annotations

from django.db import transaction
from django_q.tasks import async_task


def enqueue_on_commit(task: str, order_id: str) -> None:
    """Queue `task(order_id)` once the current transaction has committed."""
    transaction.on_commit(
        lambda: async_task(task, order_id, task_name=f"{task}:{order_id}"[:100])
    )
