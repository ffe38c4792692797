"""Documents: uploaded files and produced results, with their layout."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


def document_upload_to(instance: Document, filename: str) -> str:
    # Storage names never derive from the client's id or title (which may hold `/`).
    now = timezone.now()
    return f"documents/{now:%Y/%m/%d}/{uuid.uuid4().hex}"


class Document(models.Model):
    class Origin(models.TextChoices):
        UPLOAD = "UPLOAD", "Uploaded"
        URL = "URL", "Fetched from a URL"
        RESULT = "RESULT", "Produced by an order"

    id = models.CharField(primary_key=True, max_length=512)
    title = models.CharField(max_length=1024, null=True, blank=True)
    mime_type = models.CharField(max_length=127)
    size = models.BigIntegerField()
    sha256 = models.CharField(max_length=64)
    page_count = models.IntegerField(null=True, blank=True)
    # [{"width": int, "height": int, "rotation": int}, ...], computed once at upload.
    layout = models.JSONField(default=list, blank=True)
    file = models.FileField(upload_to=document_upload_to, max_length=300)
    origin = models.CharField(
        max_length=10, choices=Origin.choices, default=Origin.UPLOAD
    )
    source_url = models.URLField(max_length=2048, null=True, blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    # A stored rendition of another document (the FDF of a pdf-fdf result, ...).
    rendition_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="renditions",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="documents",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["mime_type"]), models.Index(fields=["origin"])]

    def __str__(self) -> str:
        return f"{self.id} ({self.title or 'untitled'})"

    @property
    def is_pdf(self) -> bool:
        return self.mime_type == "application/pdf"

    @property
    def download_name(self) -> str:
        """File name for Content-Disposition: the title with the format's extension."""
        extension = EXTENSIONS.get(self.mime_type, "")
        base = "".join(
            c for c in (self.title or "") if c.isprintable() and c not in '/\\"'
        )
        base = base.strip(" .") or "document"
        return base if base.lower().endswith(extension) else base + extension


EXTENSIONS = {
    "application/pdf": ".pdf",
    "application/zip": ".zip",
    "application/vnd.fdf": ".fdf",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/tiff": ".tif",
}


class WorkerHeartbeat(models.Model):
    """Last sign of life of each django-q2 worker process (read by /ready)."""

    name = models.CharField(primary_key=True, max_length=200)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%H:%M:%S}"


class ApiKey(models.Model):
    """A bearer key of an owner (TRANSFORMSVC_AUTH=token); only its hash is stored."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=12, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.owner})"
