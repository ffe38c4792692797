"""Transformation orders: a request, its state and timings, and its result."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from jobs.models import OrderBase, report_indexes
from jobs.specs import from_json
from orders.specs import OrderSpec
from orders.wire import spec_of


class TransformationOrder(OrderBase):
    class Format(models.TextChoices):
        PDF = "pdf", "PDF"
        PDF_FDF = "pdf-fdf", "PDF + FDF"
        ZIP = "zip", "ZIP"

    format = models.CharField(max_length=10, choices=Format.choices)
    # The normalised request it echoes: {"transformationDetails": [...],
    # "annotations": {...} | null}.
    request = models.JSONField()
    # The same request as the worker reads it: OrderSpec as JSON (jobs.specs).
    # Null for orders made before it was stored (their request is read instead).
    spec_json = models.JSONField(null=True, blank=True)
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
    # Operations the order applies to its outputs (stamp, bates...), comma
    # separated in table order, set when it is created; what each output's did,
    # and the first and last Bates number of the whole production, at its end.
    operations = models.CharField(max_length=200, blank=True, default="")
    operation_results = models.JSONField(default=list, blank=True)
    bates_first = models.PositiveBigIntegerField(null=True, blank=True)
    bates_last = models.PositiveBigIntegerField(null=True, blank=True)
    # The evidence of a redacting order that ended PROCESSED (orders.record):
    # every area and what it removed, the copies scrubbed, what the check read,
    # the inputs' and outputs' sha256; removed text as keyed hashes only.
    redaction_record = models.JSONField(null=True, blank=True)

    result_fields: ClassVar[tuple[str, ...]] = (
        "result_document",
        "output_ids",
        "operation_results",
        "bates_first",
        "bates_last",
        "redaction_record",
    )

    class Meta(OrderBase.Meta):
        indexes = [*report_indexes("format"), models.Index(fields=["format"])]

    def __str__(self) -> str:
        return f"transformation {self.id} ({self.state})"

    @property
    def spec(self) -> OrderSpec:
        """The stored request as typed values."""
        if self.spec_json is None:
            return spec_of(self.format, self.request)
        return from_json(OrderSpec, self.spec_json)
