"""django-q2 entry point of webhooks: one attempt of one delivery."""

from __future__ import annotations

from webhooks import services


def deliver(delivery_id: str) -> None:
    services.deliver(delivery_id)
