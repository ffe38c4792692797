"""django-q2 entry points of comparisons: load an id, call one service."""

from __future__ import annotations

from comparisons.services import comparison_run


def run_comparison(order_id: str) -> None:
    comparison_run(order_id=order_id)
