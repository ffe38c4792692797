"""Reads of the annotation store, scoped to the caller's owner when auth is on."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.auth import owned
from annotations.models import StoredAnnotation
from annotations.specs import RedactReason
from documents.models import Document
from documents.selectors import document_get
from engines.pdf.annotate import KINDS
from transformsvc.conf import service
from transformsvc.problems import NotFound


def annotations_of(doc: Document, owner_id: int | None) -> QuerySet[StoredAnnotation]:
    """The annotations saved on `doc`, by page then age."""
    return owned(StoredAnnotation.objects.filter(document=doc), owner_id)


def annotation_get(
    *, doc: Document, annotation_id: str, owner_id: int | None
) -> StoredAnnotation:
    """One stored annotation of `doc`; 404 when it has none of that id."""
    row = annotations_of(doc, owner_id).filter(annotation_id=annotation_id).first()
    if row is None:
        raise NotFound(f"document {doc.id!r} has no annotation {annotation_id!r}")
    return row


def replies_of(
    doc: Document, annotation_id: str, owner_id: int | None
) -> list[StoredAnnotation]:
    """The replies to annotation `annotation_id` of `doc` (those whose `inreplyto`
    names it, a string or {id}), and theirs, deepest first."""
    rows = list(annotations_of(doc, owner_id))
    children: dict[str, list[StoredAnnotation]] = {}
    for row in rows:
        parent = _reply_target(row.data)
        if parent is not None:
            children.setdefault(parent, []).append(row)
    found: list[StoredAnnotation] = []
    seen = {annotation_id}

    def visit(parent: str) -> None:
        for reply in children.get(parent, []):
            if reply.annotation_id not in seen:
                seen.add(reply.annotation_id)
                visit(reply.annotation_id)
                found.append(reply)

    visit(annotation_id)
    return found


def _reply_target(data: dict[str, Any]) -> str | None:
    for key in ("inreplyto", "inReplyTo", "inReplyToId"):
        value = data.get(key)
        if isinstance(value, dict):
            value = value.get("id")
        if isinstance(value, str) and value:
            return value
    return None


def redact_reasons() -> list[RedactReason]:
    """The configured redaction reasons (TRANSFORMSVC_REDACT_REASONS)."""
    return [
        RedactReason(symbolic_name=code, display_name=text)
        for code, text in service().redact_reasons
    ]


def annotation_policy(
    document_id: str | None, owner_id: int | None
) -> tuple[list[str], list[RedactReason]]:
    """What the server allows: the annotation kinds orders burn or attach, and the
    redaction reasons; a given `document_id` must be visible (404 otherwise)."""
    if document_id:
        document_get(document_id, owner_id)
    return sorted(KINDS), redact_reasons()
