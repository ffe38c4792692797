"""Writes of the annotation store, and conversion between FDF and XFDF."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from annotations.models import StoredAnnotation
from annotations.selectors import annotation_get, annotations_of, replies_of
from annotations.specs import AnnotationSpec
from documents.models import Document
from documents.selectors import document_get, pdf_rendition
from documents.storage import pdf_path, temp_path
from engines.errors import EngineError
from engines.pdf import xfdf, xfdf_read
from transformsvc.conf import service
from transformsvc.problems import InvalidInput

FORMATS = ("FDF", "XFDF")
CONTENT_TYPES = {"FDF": "application/vnd.fdf", "XFDF": "application/vnd.adobe.xfdf"}


def _check_pages(doc: Document, specs: Sequence[AnnotationSpec]) -> None:
    for n, spec in enumerate(specs):
        if doc.page_count and spec.page >= doc.page_count:
            raise InvalidInput(
                f"page {spec.page} (counted from 0) does not exist in document "
                f"{doc.id!r} ({doc.page_count} pages)",
                errors={f"annotations[{n}].page": ["out of range"]},
            )


def _check_room(doc: Document, adding: int, owner_id: int | None) -> None:
    most = service().max_annotations
    if annotations_of(doc, owner_id).count() + adding > most:
        raise InvalidInput(
            f"a document holds at most {most} annotations",
            errors={"annotations": [f"at most {most} per document"]},
        )


def annotations_save(
    *, doc: Document, specs: Sequence[AnnotationSpec], owner_id: int | None
) -> list[StoredAnnotation]:
    """PUT: store `specs` on `doc`; one that has the id of a stored annotation
    replaces it, one without an id gets a new one (a UUID)."""
    _check_pages(doc, specs)
    _check_room(doc, len(specs), owner_id)
    saved = []
    now = timezone.now()
    with transaction.atomic():
        for spec in specs:
            annotation_id = spec.annotation_id or str(uuid.uuid4())
            row, _ = StoredAnnotation.objects.update_or_create(
                document=doc,
                annotation_id=annotation_id,
                defaults={
                    "kind": spec.kind,
                    "page": spec.page,
                    "data": _with_id(spec, annotation_id),
                    "owner_id": owner_id,
                    "updated_at": now,
                },
            )
            saved.append(row)
    return saved


def annotation_replace(
    *, doc: Document, annotation_id: str, spec: AnnotationSpec, owner_id: int | None
) -> StoredAnnotation:
    """PUT /documents/<id>/annotations/<annotationId>: replace a stored
    annotation (404 when there is none); the body's id, when given, must be
    the path's."""
    if spec.annotation_id not in (None, annotation_id):
        raise InvalidInput(
            f"the body's id {spec.annotation_id!r} is not the path's {annotation_id!r}",
            errors={"id": ["differs from the path"]},
        )
    row = annotation_get(doc=doc, annotation_id=annotation_id, owner_id=owner_id)
    _check_pages(doc, [spec])
    row.kind, row.page = spec.kind, spec.page
    row.data = _with_id(spec, annotation_id)
    row.updated_at = timezone.now()
    row.save(update_fields=["kind", "page", "data", "updated_at"])
    return row


def annotation_remove(
    *, doc: Document, annotation_id: str, owner_id: int | None
) -> None:
    """DELETE /documents/<id>/annotations/<annotationId>: remove a stored
    annotation (404 when there is none), its replies first (annotations whose
    `inreplyto` names it, and their own replies)."""
    row = annotation_get(doc=doc, annotation_id=annotation_id, owner_id=owner_id)
    replies = replies_of(doc, annotation_id, owner_id)
    with transaction.atomic():
        for reply in replies:  # deepest first
            reply.delete()
        row.delete()


def annotations_delete(
    *, doc: Document, ids: Sequence[str], owner_id: int | None
) -> list[StoredAnnotation]:
    """DELETE: remove the annotations of `ids` (ids not stored are ignored);
    the removed ones."""
    rows = list(annotations_of(doc, owner_id).filter(annotation_id__in=list(ids)))
    StoredAnnotation.objects.filter(pk__in=[r.pk for r in rows]).delete()
    return rows


def _with_id(spec: AnnotationSpec, annotation_id: str) -> dict[str, object]:
    data = dict(spec.data)
    if spec.annotation_id is None:
        data["id"] = {"id": annotation_id}
    return data


def annotations_convert(
    *,
    data: bytes,
    source: str,
    target: str,
    document_id: str | None,
    owner_id: int | None,
) -> bytes:
    """Annotations from FDF or XFDF (or the PDF itself) to FDF or XFDF.

    `document_id`, when given, names a visible document (404 otherwise): with an
    empty body its own annotations are converted, and its name becomes the
    file the output refers to."""
    doc = document_get(document_id, owner_id) if document_id else None
    file_name = doc.download_name if doc is not None else None
    try:
        if not data and doc is not None and pdf_rendition(doc) is not None:
            with pdf_path(doc) as path:
                xml = xfdf.pdf_to_xfdf(str(path), file_name=file_name)
            return xml if target == "XFDF" else xfdf_read.xfdf_to_fdf(xml)
        if not data:
            raise InvalidInput("the body is empty", errors={"body": ["empty"]})
        if data.startswith(b"%PDF-"):  # a PDF itself, as the original's example
            xml = _pdf_bytes_to_xfdf(data, file_name)
            return xml if target == "XFDF" else xfdf_read.xfdf_to_fdf(xml)
        if source == target:
            # Read it all the same: a broken file is refused, not echoed.
            (xfdf.fdf_to_xfdf if source == "FDF" else xfdf_read.read_xfdf)(data)
            return data
        if source == "FDF":
            return xfdf.fdf_to_xfdf(data)
        return xfdf_read.xfdf_to_fdf(data)
    except EngineError as exc:
        raise InvalidInput(str(exc), errors={"body": [str(exc)]}) from exc


def _pdf_bytes_to_xfdf(data: bytes, file_name: str | None) -> bytes:
    with temp_path(".pdf") as path:
        path.write_bytes(data)
        return xfdf.pdf_to_xfdf(str(path), file_name=file_name)
