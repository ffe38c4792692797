"""Comparison orders: two documents compared page by page into a highlighted PDF."""

from __future__ import annotations

from django.db import models

from orders.base import OrderBase


class ComparisonOrder(OrderBase):
    left_document_id = models.CharField(max_length=512)
    right_document_id = models.CharField(max_length=512)
    fuzz = models.FloatField(default=3.0)
    highlight_color = models.CharField(max_length=16, default="FF0000")
    lowlight_color = models.CharField(max_length=16, blank=True, default="")
    target_document = models.ForeignKey(
        "documents.Document",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta(OrderBase.Meta):
        indexes = [
            models.Index(fields=["state"]),
            models.Index(fields=["queued_at"]),
            models.Index(fields=["state", "started_at"]),
        ]

    def __str__(self) -> str:
        return f"comparison {self.id} ({self.state})"
