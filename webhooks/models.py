"""Deliveries of ended orders to their callback URL, with every attempt."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Delivery(models.Model):
    class State(models.TextChoices):
        PENDING = "PENDING"
        DELIVERED = "DELIVERED"
        FAILED = "FAILED"  # gave up after WEBHOOK_GIVE_UP seconds

    # The `webhook-id` header: the same on every attempt, so that a receiver can
    # tell a retry from a new message.
    id = models.CharField(primary_key=True, max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    kind = models.CharField(max_length=40)
    order_id = models.CharField(max_length=64)
    url = models.URLField(max_length=2048)
    # The JSON body, exactly as sent (the order as its GET showed it at its end).
    payload = models.TextField()
    state = models.CharField(max_length=10, choices=State.choices, default="PENDING")
    attempts = models.PositiveIntegerField(default=0)
    # When the next attempt is due; while an attempt runs, when it is deemed lost.
    next_attempt_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(fields=["state", "next_attempt_at"]),
            models.Index(fields=["order_id"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.order_id} → {self.url} ({self.state})"


class Attempt(models.Model):
    """One POST of a delivery: what the receiver answered, and how fast."""

    delivery = models.ForeignKey(
        Delivery, on_delete=models.CASCADE, related_name="attempt_set"
    )
    number = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    # The first bytes of the answer's body (decoded leniently), or why none came.
    response_head = models.TextField(blank=True, default="")
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["delivery", "number"], name="webhook_attempt_once"
            )
        ]

    def __str__(self) -> str:
        return (
            f"attempt {self.number} of {self.delivery_id}: {self.status or self.error}"
        )
