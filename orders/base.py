"""What every kind of order has: a state, timestamps, an error, an owner."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from orders.states import State


class OrderBase(models.Model):
    id = models.CharField(primary_key=True, max_length=64)
    state = models.CharField(max_length=12, choices=State.choices, default=State.QUEUED)
    error_message = models.TextField(null=True, blank=True)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Facts for reports, filled when the order ends.
    page_count = models.PositiveIntegerField(null=True, blank=True)
    output_bytes = models.BigIntegerField(null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="%(class)s_set",
    )

    class Meta:
        abstract = True
        ordering = ["-queued_at"]

    @property
    def queued_ms(self) -> int | None:
        """Milliseconds from queued to picked up by a worker (to now while queued)."""
        end = self.started_at or (None if self.processed_at else timezone.now())
        if end is None:
            return None
        return max(0, int((end - self.queued_at).total_seconds() * 1000))

    @property
    def processing_ms(self) -> int | None:
        """Milliseconds from picked up to ended (to now while processing)."""
        if self.started_at is None:
            return None
        end = self.processed_at or timezone.now()
        return max(0, int((end - self.started_at).total_seconds() * 1000))
