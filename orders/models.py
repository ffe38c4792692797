"""Transformation orders: a request, its state and timings, and its result."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from jobs.models import OrderBase, report_indexes
from orders.specs import OrderSpec, spec_of


class TransformationOrder(OrderBase):
    class Format(models.TextChoices):
        PDF = "pdf", "PDF"
        PDF_FDF = "pdf-fdf", "PDF + FDF"
        ZIP = "zip", "ZIP"

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
    # What the order does, read from the request when it is created (orders.specs
    # operations_of), so that lists and reports filter without reading the JSON.
    output_count = models.PositiveIntegerField(default=1)
    redacts = models.BooleanField(default=False)
    annotates = models.BooleanField(default=False)
    merges = models.BooleanField(default=False)
    # Set when a redacting order ends PROCESSED: its outputs were read back by other
    # readers (MuPDF, qpdf) and no removed word was found. Null: nothing redacted.
    redaction_verified = models.BooleanField(null=True, blank=True)

    result_fields: ClassVar[tuple[str, ...]] = ("result_document", "output_ids")

    class Meta(OrderBase.Meta):
        indexes = [*report_indexes("format"), models.Index(fields=["format"])]

    def __str__(self) -> str:
        return f"transformation {self.id} ({self.state})"

    @property
    def spec(self) -> OrderSpec:
        """The stored request as typed values."""
        return spec_of(self.format, self.request)
