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


def document_get(document_id: str, owner_id: int | None = None) -> Document:
    try:
        return documents_visible(owner_id).get(pk=document_id)
    except Document.DoesNotExist:
        raise NotFound(f"no document with id {document_id!r}") from None
