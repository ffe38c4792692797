"""Writes on documents: upload, store results, delete."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, BinaryIO

from django.conf import settings
from django.db import IntegrityError, transaction

from documents import fetch as url_fetch
from documents import filecache
from documents.formats import format_of
from documents.ids import is_valid_client_id, new_document_id
from documents.models import DeletedDocument, Document
from documents.pdf.layout import PDF, inspect_pdf
from documents.pdf.types import DocumentInfo, PageLayout
from documents.renditions.intake import Intake, intake, ocr_mode
from documents.renditions.states import layout_json
from documents.selectors import documents_visible
from documents.signals import rendition_requested
from documents.storage import (
    Spooled,
    SpooledFile,
    ensure_disk_space,
    is_local,
    read_chunks,
    spool,
    spooled_file,
    temp_path,
)
from jobs.lifecycle import Outcome
from jobs.notify import notify_final
from ops.metrics.receivers import document_received
from transformsvc.problems import (
    Conflict,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
)

logger = logging.getLogger(__name__)


def limits() -> dict[str, Any]:
    return settings.TRANSFORMSVC


def document_create(
    *,
    stream: BinaryIO | None,
    document_id: str | None = None,
    title: str | None = None,
    url: str | None = None,
    fail_on_unsupported: bool = True,
    owner_id: int | None = None,
    declared_size: int | None = None,
    ocr: str | None = None,
) -> Document:
    """Store an uploaded document (body stream or `url`); its pages are read now
    (PDFs, images) or by a worker (`rendition_requested`). `ocr`: auto, always or
    never (None: the setting's)."""
    max_bytes = int(limits()["MAX_UPLOAD_BYTES"])
    if declared_size is not None and declared_size > max_bytes:
        raise PayloadTooLarge(
            f"the document is larger than the limit of {max_bytes} bytes"
        )
    if document_id is not None:
        if not is_valid_client_id(document_id):
            raise InvalidInput(
                "documentId must be 1 to 512 printable characters without spaces",
                errors={"documentId": ["invalid id"]},
            )
        if Document.objects.filter(pk=document_id).exists():
            raise Conflict(f"a document with id {document_id!r} exists already")
    ensure_disk_space()
    with temp_path() as path:
        if url:
            spooled = _spool_url(url, path)
        else:
            spooled = spool(
                read_chunks(stream) if stream is not None else iter(()), path, max_bytes
            )
            if spooled.size == 0:
                raise InvalidInput(
                    "the body is empty: send the document bytes or documentUrl",
                    errors={"body": ["empty"]},
                )
        document_received(spooled.size, "url" if url else "upload")
        mode = ocr_mode(ocr)
        found = intake(spooled.path, fail_on_unsupported=fail_on_unsupported, ocr=mode)
        return store_intake(
            spooled,
            found,
            document_id=document_id or new_document_id(),
            title=title if title is not None else found.info.title,
            owner_id=owner_id,
            origin=Document.Origin.URL if url else Document.Origin.UPLOAD,
            source_url=url,
            ocr=mode,
        )


def store_intake(
    spooled: Spooled,
    found: Intake,
    *,
    document_id: str,
    title: str | None,
    owner_id: int | None,
    origin: str,
    ocr: str,
    source_url: str | None = None,
    parent: Document | None = None,
    part: int | None = None,
) -> Document:
    """Store a file as `intake` found it: with its PDF made at intake, and a worker
    asked for when its pages or their text are still to be made."""
    try:
        doc = _store(
            spooled,
            found.info,
            document_id=document_id,
            title=title,
            owner_id=owner_id,
            origin=origin,
            source_url=source_url,
            parent=parent,
            part=part,
            rendition_state=found.rendition_state,
            text_state=found.text_state,
            dpi=found.dpi,
            ocr_mode=ocr,
            is_container=found.is_container,
        )
        if found.rendition is not None:
            pdf = document_store_result(
                path=found.rendition,
                document_id=new_document_id(),
                title=doc.title,
                owner_id=owner_id,
                rendition_of=doc,
            )
            reads_from(doc, pdf)
    finally:
        if found.rendition is not None:
            found.rendition.unlink(missing_ok=True)
    if found.needs_worker:
        with transaction.atomic():
            rendition_requested.send(sender=Document, document=doc)
    return doc


def _spool_url(url: str, path: Path) -> Spooled:
    conf = limits()
    allowlist = frozenset(h.lower() for h in conf["URL_ALLOWLIST"])
    try:
        chunks = url_fetch.fetch(
            url,
            allowlist=allowlist,
            timeout=float(conf["URL_TIMEOUT"]),
            max_bytes=int(conf["URL_MAX_BYTES"]),
            deadline=float(conf["URL_DEADLINE"]),
        )
        spooled = spool(chunks, path, int(conf["URL_MAX_BYTES"]))
    except url_fetch.FetchTooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except url_fetch.FetchRefused as exc:
        raise InvalidInput(str(exc), errors={"documentUrl": [str(exc)]}) from exc
    if spooled.size == 0:
        raise InvalidInput(
            "documentUrl returned an empty body", errors={"documentUrl": ["empty body"]}
        )
    return spooled


def _store(
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
    dpi: tuple[int, ...] = (),
    ocr_mode: str = "",
) -> Document:
    """Save the row and move the file into storage. `rendition_state` defaults to
    READY for a file with pages (or a container), else NONE."""
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
    try:
        with transaction.atomic():
            doc.save(force_insert=True)
    except IntegrityError as exc:
        doc.file.delete(save=False)
        raise Conflict(f"a document with id {document_id!r} exists already") from exc
    return doc


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
) -> Document:
    """Store a file produced by an order as a Document (layout computed for PDFs);
    `format` names its format when the MIME type does not (a zip of PNG pages is
    the "png" rendition of its document).

    The file is moved into storage when the storage is a local folder: `path` may
    be gone afterwards."""
    spooled = spooled_file(path, mime_type)
    detected = spooled.mime_type or "application/octet-stream"
    info = (
        inspect_pdf(str(path), produced_here=True)
        if detected == PDF
        else DocumentInfo(detected, ())
    )
    return _store(
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


def document_delete(
    *, document_id: str, owner_id: int | None = None, missing_ok: bool = False
) -> None:
    """Delete a visible document with its children and renditions, files
    included. An unknown id is a 404 (decisions §3) unless `missing_ok`."""
    found = list(documents_visible(owner_id).filter(pk=document_id))
    if not found and not missing_ok:
        raise NotFound(f"no document with id {document_id!r}")
    for doc in found:
        document_remove(doc)


def document_remove(doc: Document) -> list[Document]:
    """Delete `doc`, its children and its renditions: files (and this node's cached
    copies), rows, and a DeletedDocument record of each for reports. Returns what
    was deleted."""
    # Outside a transaction, a failed commit is tried again (below); inside one,
    # the violation surfaces at the caller's commit.
    retries = 0 if transaction.get_connection().in_atomic_block else 2
    key = doc.pk
    while True:
        gone = _with_dependents(doc)
        for dependent in gone:
            filecache.forget(str(dependent.file.name))
            dependent.file.delete(save=False)  # a missing file is no error
        try:
            with transaction.atomic():
                DeletedDocument.objects.bulk_create(_deleted_record(d) for d in gone)
                for dependent in gone:  # wakes its waiting readers, at commit
                    notify_final(dependent.pk)
                doc.delete()  # the rows of children and renditions cascade
            return gone
        except IntegrityError:
            # A worker ended an order meanwhile and pointed it at one of these
            # rows after doc.delete() had unlinked the orders pointing there
            # (its rendition, made as the document was being deleted): the
            # commit failed as a whole. Again: this time it unlinks that order.
            if retries == 0:
                raise
            retries -= 1
            # delete() cleared the primary keys of what it collected: read again.
            again = Document.objects.filter(pk=key).first()
            if again is None:
                return gone
            doc = again


def _deleted_record(doc: Document) -> DeletedDocument:
    return DeletedDocument(
        document_id=doc.id,
        title=doc.title,
        mime_type=doc.mime_type,
        size=doc.size,
        page_count=doc.page_count,
        origin=doc.origin,
        parent_id=doc.parent_id,
        rendition_of_id=doc.rendition_of_id,
        owner_id=doc.owner_id,
        created_at=doc.created_at,
    )


def _with_dependents(doc: Document) -> list[Document]:
    found = [doc]
    for dependent in [*doc.children.all(), *doc.renditions.all()]:
        found.extend(_with_dependents(dependent))
    return found


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


def document_register_layout(
    *,
    document_id: str,
    title: str | None,
    mime_type: str,
    pages: list[dict[str, int]],
    owner_id: int | None = None,
) -> Document:
    """POST /documents/layout with a JSON layout (the original's newer reading): a
    document known by its pages only, without content. Its layout and metadata
    answer; reading its pages or file does not (415/404)."""
    if not is_valid_client_id(document_id):
        raise InvalidInput(
            "documentId must be 1 to 512 printable characters without spaces",
            errors={"documentId": ["invalid id"]},
        )
    if Document.objects.filter(pk=document_id).exists():
        raise Conflict(f"a document with id {document_id!r} exists already")
    with temp_path() as path:
        info = DocumentInfo(
            mime_type,
            tuple(
                PageLayout(width=p["width"], height=p["height"], rotation=p["rotation"])
                for p in pages
            ),
        )
        doc = _store(
            spooled_file(path, mime_type),
            info,
            document_id=document_id,
            title=title,
            owner_id=owner_id,
            origin=Document.Origin.LAYOUT,
        )
    doc.layout = pages  # with each page's dpi as given
    doc.save(update_fields=["layout"])
    return doc


def reads_from(doc: Document, pdf: Document) -> None:
    """From now on the pages of `doc` are read from `pdf` (its rendition)."""
    Document.objects.filter(pk=doc.pk).update(pdf_document=pdf)
    doc.pdf_document = pdf
