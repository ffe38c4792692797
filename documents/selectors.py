"""Reads on documents, scoped to the caller's owner when authentication is on."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from documents.models import Document
from transformsvc.problems import NotFound


def auth_enabled() -> bool:
    return getattr(settings, "TRANSFORMSVC_AUTH", "") == "token"


def documents_visible(owner_id: int | None) -> QuerySet[Document]:
    qs = Document.objects.all()
    return qs.filter(owner_id=owner_id) if auth_enabled() else qs


def document_get(
    document_id: str, owner_id: int | None = None, *, with_layout: bool = False
) -> Document:
    """A visible document; its layout (one entry per page) only when asked for."""
    qs = documents_visible(owner_id)
    if not with_layout:
        # Decoding a 1,000-page layout costs more than a warm search on one page.
        qs = qs.defer("layout")
    try:
        return qs.get(pk=document_id)
    except Document.DoesNotExist:
        raise NotFound(f"no document with id {document_id!r}") from None
