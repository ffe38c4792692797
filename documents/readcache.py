"""Documents whose pages are final, kept per process for the readers of pages
(search, text, images): a warm search answers without a database round trip.

A cached row is used again only when it is cheap to tell that it still holds:
- only a document whose pages and text are final is kept (its PDF converted or
  recognised, READY, on this node's storage): nothing in it that a page read
  uses changes any more, except that it may be deleted;
- every stored file has a name of its own, and a deletion removes the files of
  the document and its renditions once their rows are gone, so the PDF file
  still being there (one `stat`) says the rows still are;
- a file whose deletion failed (left to the reconciler) or the instant between
  the rows' commit and the files' removal is bounded by
  `TRANSFORMSVC_READ_CACHE_SECONDS`, after which the row is read again.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from documents.models import Document
from documents.selectors import document_get, pdf_of
from documents.storage import is_local
from transformsvc.conf import service
from transformsvc.problems import ServiceError

MAX_ENTRIES = 1024


@dataclass(frozen=True, slots=True)
class _Entry:
    doc: Document  # with its PDF rendition set (pdf_of needs no query)
    pdf_path: str
    until: float


_entries: OrderedDict[tuple[str, int | None], _Entry] = OrderedDict()
_lock = threading.Lock()


def document_for_pages(document_id: str, owner_id: int | None = None) -> Document:
    """`selectors.document_get` for the readers of pages, answered from this
    process's cache when the document is known final and its PDF still there.

    The document is shared with other threads: read it, never change it."""
    ttl = service().read_cache_seconds
    if ttl <= 0:
        return document_get(document_id, owner_id)
    key = (document_id, owner_id)
    now = time.monotonic()
    with _lock:
        entry = _entries.get(key)
        if entry is not None:
            _entries.move_to_end(key)
    if entry is not None and entry.until > now and os.path.exists(entry.pdf_path):
        return entry.doc
    doc = document_get(document_id, owner_id)
    path = _final_pdf_path(doc)
    with _lock:
        if path is None:
            _entries.pop(key, None)
        else:
            _entries[key] = _Entry(doc, path, now + ttl)
            _entries.move_to_end(key)
            while len(_entries) > MAX_ENTRIES:
                _entries.popitem(last=False)
    return doc


def forget_all() -> None:
    """Empty this process's cache (tests that change rows under it)."""
    with _lock:
        _entries.clear()


def _final_pdf_path(doc: Document) -> str | None:
    """The local path of the PDF read for `doc` when nothing a page read uses
    can change any more (None: not final, not local, or no PDF), with the
    rendition set on `doc` so that `pdf_of` answers without a query."""
    if (
        doc.rendition_state != Document.Rendition.READY
        or doc.text_state == Document.Text.PENDING
        or not doc.page_count
        or doc.is_container
        or doc.file_lost_at is not None
    ):
        return None
    try:
        pdf = pdf_of(doc)
    except ServiceError:
        return None
    if pdf.file_lost_at is not None or not pdf.file.name or not is_local(pdf.file):
        return None
    if pdf is not doc:
        doc.pdf_document = pdf
    return str(pdf.file.path)
