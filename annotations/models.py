"""Annotations a viewer saved on a document, kept in the viewer's own JSON."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from documents.models import Document


class StoredAnnotation(models.Model):
    document = models.ForeignKey(
        Document, on_delete=models.CASCADE, related_name="stored_annotations"
    )
    # The annotation's own id (`id` or `id.id` of the JSON), unique per document.
    annotation_id = models.CharField(max_length=512)
    kind = models.CharField(max_length=256)  # `type` as sent
    page = models.IntegerField()  # from 0
    # The annotation as the viewer sent it (its model varies between viewers).
    data = models.JSONField()
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="annotations",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["page", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["document", "annotation_id"], name="one_annotation_per_id"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.annotation_id} on {self.document_id} p.{self.page}"
