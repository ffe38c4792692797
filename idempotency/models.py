"""Idempotency keys: one row per (owner, key), claimed before the work is done."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotencyKey(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    key = models.CharField(max_length=255)
    # The route (URL pattern name) the key was first used on.
    route = models.CharField(max_length=100)
    # sha256 of method, path, query and body; set with the answer.
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    # The first answer: null while its request is still being served.
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=2048, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # A key still unanswered past this was left by a process that died.
    locked_until = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            # NULLS NOT DISTINCT: without authentication every key has no owner.
            models.UniqueConstraint(
                fields=["owner", "key"],
                name="idempotency_key_once_per_owner",
                nulls_distinct=False,
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.route}, {self.status or 'in progress'})"
