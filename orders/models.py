"""Transformation orders: a request, its state and timings, and its result."""

from __future__ import annotations

from django.db import models

from orders.base import OrderBase


class TransformationOrder(OrderBase):
    class Format(models.TextChoices):
        PDF = "pdf"
        PDF_FDF = "pdf-fdf"
        ZIP = "zip"

    format = models.CharField(max_length=10, choices=Format.choices)
    # The normalised request: {"transformationDetails": [...], "annotations": {...} | null}.
    request = models.JSONField()
    result_document = models.ForeignKey(
        "documents.Document",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # Ids of the output documents when the order has several (children of the result).
    output_ids = models.JSONField(default=list, blank=True)
    input_count = models.PositiveIntegerField(default=0)

    class Meta(OrderBase.Meta):
        indexes = [
            models.Index(fields=["state"]),
            models.Index(fields=["queued_at"]),
            models.Index(fields=["format"]),
            models.Index(fields=["state", "started_at"]),
        ]

    def __str__(self) -> str:
        return f"transformation {self.id} ({self.state})"
