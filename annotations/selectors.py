"""Reads of the annotation store, scoped to the caller's owner when auth is on."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from accounts.auth import owned
from annotations.models import StoredAnnotation
from annotations.specs import RedactReason
from documents.models import Document
from documents.pdf.annotate import KINDS
from documents.selectors import document_get


def annotations_of(doc: Document, owner_id: int | None) -> QuerySet[StoredAnnotation]:
    """The annotations saved on `doc`, by page then age."""
    return owned(StoredAnnotation.objects.filter(document=doc), owner_id)


def redact_reasons() -> list[RedactReason]:
    """The configured redaction reasons (TRANSFORMSVC_REDACT_REASONS)."""
    return [
        RedactReason(symbolic_name=code, display_name=text)
        for code, text in settings.TRANSFORMSVC["REDACT_REASONS"]
    ]


def annotation_policy(
    document_id: str | None, owner_id: int | None
) -> tuple[list[str], list[RedactReason]]:
    """What the server allows: the annotation kinds orders burn or attach, and the
    redaction reasons; a given `document_id` must be visible (404 otherwise)."""
    if document_id:
        document_get(document_id, owner_id)
    return sorted(KINDS), redact_reasons()
