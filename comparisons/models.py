"""Comparison orders: two documents compared page by page into a highlighted PDF."""

from __future__ import annotations

from django.db import models

from jobs.models import OrderBase, report_indexes


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
        indexes = report_indexes()

    def __str__(self) -> str:
        return f"comparison {self.id} ({self.state})"
