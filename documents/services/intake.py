"""Writes on documents as they arrive: an upload or a URL fetched, stored with
its PDF made at intake, and its rendition owed in the same transaction when a
worker must make it; a document registered by its layout alone."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import BinaryIO

from documents.ids import is_valid_client_id, new_document_id
from documents.models import Document
from documents.renditions.intake import Intake, intake, ocr_mode
from documents.renditions.maker import maker
from documents.services.results import reads_from
from documents.services.rows import commit_rows, new_row
from documents.storage import Spooled, read_chunks, spool, spooled_file, temp_path
from engines import fetch as url_fetch
from engines.errors import PasswordRequired
from engines.pdf.layout import inspect_pdf
from engines.pdf.ops import unlock
from engines.pdf.types import DocumentInfo, PageLayout
from ops.metrics.receivers import document_received
from transformsvc.conf import service
from transformsvc.disk import ensure_disk_space
from transformsvc.problems import Conflict, InvalidInput, PayloadTooLarge

logger = logging.getLogger(__name__)

# The header that carries the password of a protected upload (a header, not a
# query parameter: access logs show query strings).
PASSWORD_HEADER = "X-Document-Password"


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
    password: str | None = None,
) -> Document:
    """Store an uploaded document (body stream or `url`); its pages are read now
    (PDFs, images) or by a worker (its rendition is owed with the row). `ocr`:
    auto, always or never (None: the setting's). `password` opens a protected
    PDF or Office file: the document is kept decrypted (the password itself is
    neither stored nor logged)."""
    max_bytes = service().max_upload_bytes
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
        if password:
            spooled = _unlocked(spooled, password)
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
    """Store a file as `intake` found it: the document, the PDF made at intake,
    and the rendition a worker owes it, committed together (a crash leaves all
    or nothing)."""
    pdf = None
    try:
        doc = new_row(
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
            pdf = new_row(
                spooled_file(found.rendition),
                inspect_pdf(str(found.rendition), produced_here=True),
                document_id=new_document_id(),
                title=doc.title,
                owner_id=owner_id,
                origin=Document.Origin.RESULT,
                rendition_of=doc,
            )
    finally:
        if found.rendition is not None:
            found.rendition.unlink(missing_ok=True)

    def then() -> None:
        if pdf is not None:
            reads_from(doc, pdf)
        if found.needs_worker:
            maker().request(doc)

    commit_rows([doc] if pdf is None else [doc, pdf], then=then)
    return doc


def _unlocked(spooled: Spooled, password: str) -> Spooled:
    """The spooled upload decrypted in place with `password` (as it was when it
    needs none). A wrong password is a 400 naming the header."""
    opened = spooled.path.with_name(spooled.path.name + ".open")
    try:
        if not unlock(str(spooled.path), str(opened), password):
            return spooled
        os.replace(opened, spooled.path)
    except PasswordRequired as exc:
        raise InvalidInput(
            str(exc), errors={PASSWORD_HEADER: [str(exc)]}, code=exc.code
        ) from exc
    finally:
        opened.unlink(missing_ok=True)
    return spooled_file(spooled.path)


def _spool_url(url: str, path: Path) -> Spooled:
    conf = service()
    allowlist = frozenset(h.lower() for h in conf.url_allowlist)
    try:
        chunks = url_fetch.fetch(
            url,
            allowlist=allowlist,
            timeout=conf.url_timeout,
            max_bytes=conf.url_max_bytes,
            deadline=conf.url_deadline,
        )
        spooled = spool(chunks, path, conf.url_max_bytes)
    except url_fetch.FetchTooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except url_fetch.FetchRefused as exc:
        raise InvalidInput(str(exc), errors={"documentUrl": [str(exc)]}) from exc
    if spooled.size == 0:
        raise InvalidInput(
            "documentUrl returned an empty body", errors={"documentUrl": ["empty body"]}
        )
    return spooled


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
        doc = new_row(
            spooled_file(path, mime_type),
            info,
            document_id=document_id,
            title=title,
            owner_id=owner_id,
            origin=Document.Origin.LAYOUT,
        )
    doc.layout = pages  # with each page's dpi as given
    commit_rows([doc])
    return doc
