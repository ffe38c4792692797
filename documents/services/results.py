"""Writes on documents that the service makes: an order's outputs and a
document's renditions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from documents.models import Document
from documents.services.deletion import document_delete
from documents.services.rows import commit_rows, new_row
from documents.storage import spooled_file
from engines.pdf.layout import PDF, inspect_pdf
from engines.pdf.types import DocumentInfo
from jobs.lifecycle import Outcome


def document_store_result(
    *,
    path: Path,
    document_id: str,
    title: str | None,
    owner_id: int | None,
    parent: Document | None = None,
    mime_type: str | None = None,
    rendition_of: Document | None = None,
    format: str | None = None,
    part: int | None = None,
    is_container: bool = False,
    info: DocumentInfo | None = None,
) -> Document:
    """Store a file produced by an order as a Document (layout computed for PDFs);
    `format` names its format when the MIME type does not (a zip of PNG pages is
    the "png" rendition of its document). `info`: the PDF's, when the caller
    has read it already.

    The file is moved into storage when the storage is a local folder: `path` may
    be gone afterwards."""
    spooled = spooled_file(path, mime_type)
    detected = spooled.mime_type or "application/octet-stream"
    if info is None:
        info = (
            inspect_pdf(str(path), produced_here=True)
            if detected == PDF
            else DocumentInfo(detected, ())
        )
    doc = new_row(
        spooled,
        info,
        document_id=document_id,
        title=title,
        owner_id=owner_id,
        origin=Document.Origin.RESULT,
        parent=parent,
        rendition_of=rendition_of,
        fmt=format,
        part=part,
        is_container=is_container,
    )
    commit_rows([doc])
    return doc


def result_outcome(result: Document, **fields: Any) -> Outcome:
    """The outcome of an order that produced `result`: its facts for reports, and
    its removal should the order be gone by the time it ends."""

    def discard() -> None:
        document_delete(
            document_id=result.id, owner_id=result.owner_id, missing_ok=True
        )

    return Outcome(
        fields={"page_count": result.page_count, "output_bytes": result.size, **fields},
        discard=discard,
    )


def reads_from(doc: Document, pdf: Document) -> None:
    """From now on the pages of `doc` are read from `pdf` (its rendition)."""
    Document.objects.filter(pk=doc.pk).update(pdf_document=pdf)
    doc.pdf_document = pdf
