"""A document row and its file: the file is written to storage first, then the
row is committed; a row that fails to commit takes its file with it. What is
never committed is swept later by the reconciler (files without rows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import IntegrityError, transaction

from documents import filecache
from documents.formats import format_of
from documents.models import Document
from documents.renditions.states import layout_json
from documents.storage import Spooled, SpooledFile, is_local
from engines.pdf.types import DocumentInfo
from transformsvc.problems import Conflict


def new_row(
    spooled: Spooled,
    info: DocumentInfo,
    *,
    document_id: str,
    title: str | None,
    owner_id: int | None,
    origin: str,
    source_url: str | None = None,
    parent: Document | None = None,
    rendition_of: Document | None = None,
    fmt: str | None = None,
    part: int | None = None,
    is_container: bool = False,
    rendition_state: str | None = None,
    text_state: str = Document.Text.READY,
    dpi: Sequence[int] = (),
    ocr_mode: str = "",
) -> Document:
    """An unsaved row with its file moved into storage. `rendition_state`
    defaults to READY for a file with pages (or a container), else NONE."""
    if rendition_state is None:
        rendition_state = (
            Document.Rendition.READY
            if info.pages or is_container
            else Document.Rendition.NONE
        )
    doc = Document(
        id=document_id,
        title=title,
        mime_type=info.mime_type,
        format=fmt or format_of(info.mime_type),
        size=spooled.size,
        sha256=spooled.sha256,
        page_count=info.page_count if info.pages else None,
        rendition_state=rendition_state,
        text_state=text_state,
        ocr_mode=ocr_mode,
        is_container=is_container,
        part=part,
        layout=layout_json(info.pages, dpi),
        origin=origin,
        source_url=source_url,
        owner_id=owner_id,
        parent=parent,
        rendition_of=rendition_of,
    )
    with spooled.path.open("rb") as fh:
        doc.file.save("upload", SpooledFile(fh, spooled.path), save=False)
    if not is_local(doc.file):
        # The bytes are on this node already: the next read needs no download.
        filecache.remember(str(doc.file.name), spooled.path)
    return doc


def commit_rows(
    docs: Sequence[Document], then: Callable[[], None] | None = None
) -> None:
    """Insert `docs` (files already stored) and run `then` in one transaction;
    on failure their files are removed. An id taken already is a 409."""
    try:
        with transaction.atomic():
            for doc in docs:
                doc.save(force_insert=True)
            if then is not None:
                then()
    except BaseException as exc:
        for doc in docs:
            filecache.forget(str(doc.file.name))
            doc.file.delete(save=False)
        if isinstance(exc, IntegrityError):
            raise Conflict(f"a document with id {docs[0].id!r} exists already") from exc
        raise
