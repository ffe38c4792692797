"""Conversion orders: a document converted to another format by a worker."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from jobs.models import OrderBase, report_indexes


class ConversionOrder(OrderBase):
    # The source document (an id, not a key: the order outlives a deleted document
    # in the reports).
    document_id = models.CharField(max_length=512)
    # The target format's short name: pdf, docx, odt, txt, html, png...
    format = models.CharField(max_length=20)
    # Made by the service for an upload that needs a PDF to be read (its pages,
    # text, orders); not asked for by a client.
    automatic = models.BooleanField(default=False)
    result_document = models.ForeignKey(
        "documents.Document",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    result_fields: ClassVar[tuple[str, ...]] = ("result_document",)

    class Meta(OrderBase.Meta):
        indexes = [*report_indexes("format"), models.Index(fields=["document_id"])]

    def id_suffix(self) -> str:
        return self.format  # the original's conversion ids end with "-<format>"

    def __str__(self) -> str:
        return f"conversion {self.id} to {self.format} ({self.state})"
