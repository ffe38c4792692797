"""Where document bytes live: spooling uploads, temporary files, local paths.

Files go through Django's default storage (a local folder, or S3 and the like
through django-storages); PDF engines need a local path, which `local_path` gives
(the file itself, or a temporary copy of a remote one).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.core.files import File
from django.db.models.fields.files import FieldFile

from documents import filecache
from documents.models import Document
from documents.selectors import pdf_of
from engines.pdf.layout import sniff
from transformsvc.problems import Gone, PayloadTooLarge

CHUNK = 256 * 1024


class SpooledFile(File[bytes]):
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


def spooled_file(path: Path, mime_type: str | None = None) -> Spooled:
    """A file already on disk, hashed and sniffed like an upload."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        head = fh.read(1024)
        digest.update(head)
        for chunk in read_chunks(fh):
            digest.update(chunk)
    return Spooled(
        path, path.stat().st_size, digest.hexdigest(), mime_type or sniff(head)
    )


def stream_sha256(stream: BinaryIO | File[bytes], max_bytes: int) -> str:
    """The sha256 of a stream read in chunks (none kept), up to `max_bytes` + 1
    bytes: a longer body could never match a stored upload anyway."""
    digest = hashlib.sha256()
    size = 0
    for chunk in read_chunks(stream):
        digest.update(chunk)
        size += len(chunk)
        if size > max_bytes:
            break
    return digest.hexdigest()


def read_chunks(stream: BinaryIO | File[bytes]) -> Iterator[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk


def is_local(file: FieldFile) -> bool:
    """Whether the storage of `file` is a folder of this node (it has paths)."""
    try:
        file.path  # noqa: B018 - remote storages raise here
    except NotImplementedError:
        return False
    return True


def _lost(doc: Document) -> Gone:
    return Gone(
        f"the stored file of document {doc.pk!r} is missing; upload the document again"
    )


def open_stored(doc: Document) -> File[bytes]:
    """The document's stored file, open for reading; 410 when it is lost."""
    if doc.file_lost_at is not None:
        raise _lost(doc)
    try:
        return doc.file.open("rb")
    except FileNotFoundError:
        raise _lost(doc) from None


@contextmanager
def local_path(doc: Document) -> Iterator[Path]:
    """A local file path of the document's bytes: the file itself on a local
    storage; on a remote one (S3...) this node's cached copy of it. 410 when the
    stored file is lost."""
    if doc.file_lost_at is not None:
        raise _lost(doc)
    if is_local(doc.file):
        path = Path(doc.file.path)
        if not path.exists():
            raise _lost(doc)
        yield path
    else:
        try:
            copy = filecache.local_copy(doc.file)
        except FileNotFoundError:
            raise _lost(doc) from None
        yield copy


@contextmanager
def pdf_path(doc: Document) -> Iterator[Path]:
    """A local path of the PDF to work on for `doc`: the document itself when it is
    a PDF, else its PDF rendition (415 when it has none)."""
    with local_path(pdf_of(doc)) as path:
        yield path
