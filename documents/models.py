"""Documents: uploaded files and produced results, with their layout."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from documents.formats import extension_of


def document_upload_to(instance: Document, filename: str) -> str:
    # Storage names never derive from the client's id or title (which may hold `/`).
    now = timezone.now()
    return f"documents/{now:%Y/%m/%d}/{uuid.uuid4().hex}"


class Document(models.Model):
    class Origin(models.TextChoices):
        UPLOAD = "UPLOAD", "Uploaded"
        URL = "URL", "Fetched from a URL"
        RESULT = "RESULT", "Produced by an order"
        PART = "PART", "Part of a container"
        # POST /documents/layout with a JSON layout: known by its pages, no content.
        LAYOUT = "LAYOUT", "Registered from its layout"

    class Rendition(models.TextChoices):
        """Whether the pages (layout, text, images) of the document can be read."""

        READY = "READY", "Ready"
        PENDING = "PENDING", "Being converted"
        FAILED = "FAILED", "Conversion failed"
        NONE = "NONE", "Has no pages"  # media, containers, files stored as they are

    class Text(models.TextChoices):
        """Whether the text of the pages is final (OCR may still be adding to it)."""

        READY = "READY", "Ready"
        PENDING = "PENDING", "Being recognised"

    id = models.CharField(primary_key=True, max_length=512)
    title = models.CharField(max_length=1024, null=True, blank=True)
    mime_type = models.CharField(max_length=127)
    # Short name of the format as uploaded: pdf, docx, eml, zip, png, mp4...
    format = models.CharField(max_length=20, blank=True, default="")
    size = models.BigIntegerField()
    sha256 = models.CharField(max_length=64)
    page_count = models.IntegerField(null=True, blank=True)
    # [{"width": int, "height": int, "rotation": int, "dpi": int?}, ...], computed
    # once, when the pages become readable.
    layout = models.JSONField(default=list, blank=True)
    rendition_state = models.CharField(
        max_length=8, choices=Rendition.choices, default=Rendition.READY
    )
    # Why the pages cannot be read, for the user (a failed conversion).
    rendition_error = models.TextField(null=True, blank=True)
    text_state = models.CharField(
        max_length=8, choices=Text.choices, default=Text.READY
    )
    # Why the text of scanned pages is missing, for the user (a failed or lost
    # recognition); readers of text say so.
    text_error = models.TextField(null=True, blank=True)
    # When the reconciler found its stored file gone (documents.reconcile); its
    # readers are told so.
    file_lost_at = models.DateTimeField(null=True, blank=True)
    # What its conversion kept and could not (engines.convert.Fidelity as JSON:
    # fonts asked and used, the encoding chosen and its confidence, parts
    # skipped), and what recognition found (engines.ocr.OcrReport as JSON, each
    # page's mean word confidence); null when nothing was converted/recognised.
    fidelity = models.JSONField(null=True, blank=True)
    ocr_report = models.JSONField(null=True, blank=True)
    is_container = models.BooleanField(default=False)
    # How its scans are recognised (auto, always, never), as asked at upload.
    ocr_mode = models.CharField(max_length=6, blank=True, default="")
    # Of a part of a container: its number (e-mail body 0, attachments and archive
    # entries from 1, outputs of an order from 0); its id is `<parent id>/<part>`.
    part = models.PositiveIntegerField(null=True, blank=True)
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
    # The PDF whose pages are read for this document (search, images, orders):
    # its rendition (converted, or recognised); null: the document itself.
    pdf_document = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
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
        indexes = [
            models.Index(fields=["mime_type"]),
            models.Index(fields=["origin"]),
            models.Index(fields=["parent", "part"]),
        ]

    def __str__(self) -> str:
        return f"{self.id} ({self.title or 'untitled'})"

    @property
    def is_pdf(self) -> bool:
        return self.mime_type == "application/pdf"

    @property
    def download_name(self) -> str:
        """File name for Content-Disposition: the title with the format's extension."""
        extension = extension_of(self.mime_type)
        base = "".join(
            c for c in (self.title or "") if c.isprintable() and c not in '/\\"'
        )
        base = base.strip(" .") or "document"
        return base if base.lower().endswith(extension) else base + extension


class DeletedDocument(models.Model):
    """What a deleted document was, kept for reports (the `document_report` view
    lists live and deleted documents). The document's own row and file are gone,
    exactly as before, so its id is free again: a later upload may reuse it."""

    document_id = models.CharField(max_length=512, db_index=True)
    title = models.CharField(max_length=1024, null=True, blank=True)
    mime_type = models.CharField(max_length=127)
    size = models.BigIntegerField()
    page_count = models.IntegerField(null=True, blank=True)
    origin = models.CharField(max_length=10, choices=Document.Origin.choices)
    parent_id = models.CharField(max_length=512, null=True, blank=True)
    rendition_of_id = models.CharField(max_length=512, null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(db_index=True)
    deleted_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.document_id} (deleted {self.deleted_at:%Y-%m-%d %H:%M:%S})"
