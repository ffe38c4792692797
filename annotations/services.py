"""Writes of the annotation store, and conversion between FDF and XFDF."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from annotations.models import StoredAnnotation
from annotations.selectors import annotations_of
from annotations.specs import AnnotationSpec
from documents.models import Document
from documents.pdf import xfdf, xfdf_read
from documents.pdf.types import EngineError
from documents.selectors import document_get, pdf_rendition
from documents.storage import pdf_path, temp_path
from transformsvc.problems import InvalidInput, NotFound

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
    most = int(settings.TRANSFORMSVC["MAX_ANNOTATIONS"])
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


def annotations_update(
    *, doc: Document, specs: Sequence[AnnotationSpec], owner_id: int | None
) -> list[StoredAnnotation]:
    """POST: replace stored annotations by id; an unknown (or absent) id is a 404."""
    _check_pages(doc, specs)
    rows = annotations_of(doc, owner_id)
    updated = []
    with transaction.atomic():
        for n, spec in enumerate(specs):
            row = rows.filter(annotation_id=spec.annotation_id or "").first()
            if row is None:
                raise NotFound(
                    f"document {doc.id!r} has no annotation {spec.annotation_id!r}",
                    errors={f"annotations[{n}].id": ["unknown annotation"]},
                )
            row.kind, row.page = spec.kind, spec.page
            row.data = _with_id(spec, row.annotation_id)
            row.updated_at = timezone.now()
            row.save(update_fields=["kind", "page", "data", "updated_at"])
            updated.append(row)
    return updated


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
