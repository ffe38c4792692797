"""django-q2 entry points of conversions: load an id, call one service."""

from __future__ import annotations

from conversions.services import conversion_run


def run_conversion(order_id: str) -> None:
    conversion_run(order_id=order_id)
