"""Writes on documents: upload, store results, delete."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.core.files import File
from django.db import IntegrityError, transaction

from documents import fetch as url_fetch
from documents.ids import is_valid_client_id, new_document_id
from documents.models import Document
from documents.pdf.layout import IMAGE_TYPES, PDF, image_to_pdf, inspect_pdf, sniff
from documents.pdf.types import DocumentInfo, UnsupportedDocument
from documents.selectors import documents_visible
from transformsvc.problems import (
    Busy,
    Conflict,
    InvalidInput,
    PayloadTooLarge,
    UnsupportedMedia,
)

logger = logging.getLogger(__name__)

CHUNK = 256 * 1024


def limits() -> dict[str, object]:
    return settings.TRANSFORMSVC


class _SpooledFile(File):
    """A spooled temporary file: the file-system storage moves it into place instead
    of copying it (remote storages read it as any file)."""

    def __init__(self, fh: BinaryIO, path: Path) -> None:
        super().__init__(fh, name=path.name)
        self._path = path

    def temporary_file_path(self) -> str:
        return str(self._path)


@dataclass(frozen=True)
class Spooled:
    path: Path
    size: int
    sha256: str
    mime_type: str | None


def tmp_dir() -> Path:
    path = Path(settings.DATA_DIR) / "tmp"
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def temp_path(suffix: str = "") -> Iterator[Path]:
    """A fresh path under the data dir's tmp folder, removed afterwards."""
    fd, name = tempfile.mkstemp(dir=tmp_dir(), suffix=suffix)
    os.close(fd)
    try:
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


def ensure_disk_space() -> None:
    free = shutil.disk_usage(tmp_dir()).free
    if free < limits()["MIN_FREE_DISK"]:
        raise Busy(
            "the service is short of disk space; try again later",
            headers={"Retry-After": "60"},
        )


def spool(chunks: Iterable[bytes], dest: Path, max_bytes: int) -> Spooled:
    """Write chunks to `dest`, hashing on the way; never holds the whole file."""
    digest = hashlib.sha256()
    size = 0
    head = b""
    with dest.open("wb") as out:
        for chunk in chunks:
            size += len(chunk)
            if size > max_bytes:
                raise PayloadTooLarge(
                    f"the document is larger than the limit of {max_bytes} bytes"
                )
            if len(head) < 1024:
                head += chunk[: 1024 - len(head)]
            digest.update(chunk)
            out.write(chunk)
    return Spooled(dest, size, digest.hexdigest(), sniff(head))


def read_chunks(stream: BinaryIO) -> Iterator[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk


def _describe(spooled: Spooled, fail_on_unsupported: bool) -> DocumentInfo:
    """The layout of an upload: of the PDF itself, or of an image's PDF rendition
    (made beside the spooled file, `<path>.pdf`)."""
    if spooled.mime_type in IMAGE_TYPES:
        rendition = _rendition_path(spooled)
        try:
            image_to_pdf(str(spooled.path), str(rendition), int(limits()["MAX_PAGES"]))
            info = inspect_pdf(str(rendition), produced_here=True)
        except UnsupportedDocument as exc:
            rendition.unlink(missing_ok=True)
            if fail_on_unsupported:
                raise UnsupportedMedia(str(exc)) from exc
            return DocumentInfo(mime_type=spooled.mime_type, pages=())
        return DocumentInfo(mime_type=spooled.mime_type, pages=info.pages)
    if spooled.mime_type == PDF:
        try:
            return inspect_pdf(str(spooled.path), max_pages=int(limits()["MAX_PAGES"]))
        except UnsupportedDocument as exc:
            if fail_on_unsupported:
                raise UnsupportedMedia(str(exc)) from exc
            return DocumentInfo(mime_type=PDF, pages=())
    if fail_on_unsupported:
        kind = spooled.mime_type or "an unknown format"
        raise UnsupportedMedia(
            f"the document is {kind}; PDF documents and PNG, JPEG or TIFF images "
            "are supported"
            " (send failOnUnsupported=false to store it as is)"
        )
    return DocumentInfo(
        mime_type=spooled.mime_type or "application/octet-stream", pages=()
    )


def _rendition_path(spooled: Spooled) -> Path:
    return spooled.path.with_name(spooled.path.name + ".pdf")


def document_create(
    *,
    stream: BinaryIO | None,
    document_id: str | None = None,
    title: str | None = None,
    url: str | None = None,
    fail_on_unsupported: bool = True,
    owner_id: int | None = None,
    declared_size: int | None = None,
) -> Document:
    """Store an uploaded document (body stream or `url`) and its layout."""
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
        info = _describe(spooled, fail_on_unsupported)
        doc = _store(
            spooled,
            info,
            document_id=document_id or new_document_id(),
            title=title if title is not None else info.title,
            owner_id=owner_id,
            origin=Document.Origin.URL if url else Document.Origin.UPLOAD,
            source_url=url,
        )
        rendition = _rendition_path(spooled)
        if rendition.exists():
            try:
                document_store_result(
                    path=rendition,
                    document_id=new_document_id(),
                    title=doc.title,
                    owner_id=owner_id,
                    rendition_of=doc,
                )
            finally:
                rendition.unlink(missing_ok=True)
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
) -> Document:
    doc = Document(
        id=document_id,
        title=title,
        mime_type=info.mime_type,
        size=spooled.size,
        sha256=spooled.sha256,
        page_count=info.page_count if info.pages else None,
        layout=[
            {"width": p.width, "height": p.height, "rotation": p.rotation}
            for p in info.pages
        ],
        origin=origin,
        source_url=source_url,
        owner_id=owner_id,
        parent=parent,
        rendition_of=rendition_of,
    )
    with spooled.path.open("rb") as fh:
        doc.file.save("upload", _SpooledFile(fh, spooled.path), save=False)
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
) -> Document:
    """Store a file produced by an order as a Document (layout computed for PDFs).

    The file is moved into storage when the storage is a local folder: `path` may
    be gone afterwards."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in read_chunks(fh):
            digest.update(chunk)
    with path.open("rb") as fh:
        head = fh.read(1024)
    detected = mime_type or sniff(head) or "application/octet-stream"
    spooled = Spooled(path, path.stat().st_size, digest.hexdigest(), detected)
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
    )


def pdf_of(doc: Document) -> Document:
    """The document itself when it is a PDF, else its PDF rendition (images)."""
    if doc.is_pdf:
        return doc
    rendition = doc.renditions.filter(mime_type=PDF).first()
    if rendition is None:
        raise UnsupportedMedia(
            f"document {doc.id!r} is {doc.mime_type}, not a readable PDF"
        )
    return rendition


@contextmanager
def local_path(doc: Document) -> Iterator[Path]:
    """A local file path of the document's bytes (a temporary copy for remote storage)."""
    try:
        local = Path(doc.file.path)
    except NotImplementedError:  # remote storage (S3 ...): copy it down in chunks
        local = None
    if local is not None:
        yield local
        return
    with temp_path() as path, doc.file.open("rb") as src, path.open("wb") as out:
        for chunk in read_chunks(src):
            out.write(chunk)
        out.close()
        yield path


def document_delete(*, document_id: str, owner_id: int | None = None) -> None:
    """Delete a document with its children and renditions, files included;
    nothing to delete is fine."""
    for doc in documents_visible(owner_id).filter(pk=document_id):
        for dependent in _with_dependents(doc):
            dependent.file.delete(save=False)
        doc.delete()  # the rows of children and renditions cascade


def _with_dependents(doc: Document) -> list[Document]:
    found = [doc]
    for dependent in [*doc.children.all(), *doc.renditions.all()]:
        found.extend(_with_dependents(dependent))
    return found
