"""django-q2 entry points: load an id, call one service. Nothing else."""

from __future__ import annotations

from django.db import transaction
from django_q.tasks import async_task

TRANSFORMATION_TASK = "orders.tasks.run_transformation"
COMPARISON_TASK = "comparisons.tasks.run_comparison"


def enqueue_on_commit(task: str, order_id: str) -> None:
    """Queue `task(order_id)` once the current transaction has committed."""
    transaction.on_commit(
        lambda: async_task(task, order_id, task_name=f"{task}:{order_id}"[:100])
    )


def run_transformation(order_id: str) -> None:
    from orders.services import order_run

    order_run(order_id=order_id)
