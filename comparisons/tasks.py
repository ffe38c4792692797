"""django-q2 entry points of comparisons."""

from __future__ import annotations


def run_comparison(order_id: str) -> None:
    from comparisons.services import comparison_run

    comparison_run(order_id=order_id)
