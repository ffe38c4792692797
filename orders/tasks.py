"""django-q2 entry points: load an id, call one service. Nothing else."""

from __future__ import annotations

from orders.build import order_run


def run_transformation(order_id: str) -> None:
    order_run(order_id=order_id)
