"""Opened documents and extracted page text, kept in small LRU caches.

A cached document is shared: callers of `open_document` must only read it (no
edits, no `close()`). PyMuPDF is not thread-safe, so every MuPDF call of the text
engine runs under `mupdf_lock`. Page indexes count from 0.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

import pymupdf

from engines.errors import EngineError, PageOutOfRange, UnsupportedDocument
from engines.pdf.failures import engine_failures
from engines.pdf.text.extract import PageText, extract_page

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Lru(Generic[K, V]):
    """A bounded, thread-safe mapping that forgets the least recently used entry."""

    def __init__(self, maxsize: int) -> None:
        self._maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            self._trim()

    def resize(self, maxsize: int) -> None:
        with self._lock:
            self._maxsize = maxsize
            self._trim()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def _trim(self) -> None:
        # Evicted documents are not closed: another thread may still be using one;
        # PyMuPDF closes it when the last reference goes.
        while len(self._items) > self._maxsize:
            self._items.popitem(last=False)


# (absolute path, mtime in ns, size in bytes): a rewritten file is a new document.
_DocKey = tuple[str, int, int]


mupdf_lock = threading.RLock()
_documents: _Lru[_DocKey, pymupdf.Document] = _Lru(16)
_pages: _Lru[tuple[_DocKey, int], PageText] = _Lru(256)


def configure_cache(*, documents: int = 16, pages: int = 256) -> None:
    """Set how many opened documents and extracted pages are kept (LRU)."""
    _documents.resize(max(1, documents))
    _pages.resize(max(1, pages))


def clear_cache() -> None:
    """Forget every cached document and page text (e.g. after deleting files)."""
    with mupdf_lock:
        _documents.clear()
        _pages.clear()


def open_document(path: str) -> pymupdf.Document:
    """The PDF at `path`, opened once and cached by (path, mtime, size).

    The document is shared with other callers: read it, never modify or close it.
    Documents encrypted with an empty user password are opened; any other password
    or an unreadable file raises `UnsupportedDocument`.
    """
    with mupdf_lock:
        return cached_document(document_key(path))


def document_key(path: str) -> _DocKey:
    """The cache key of the file at `path`; EngineError when it cannot be read."""
    absolute = os.path.abspath(path)
    try:
        stat = os.stat(absolute)
    except OSError as exc:
        raise EngineError(f"the document file cannot be read: {exc.strerror}") from exc
    return (absolute, stat.st_mtime_ns, stat.st_size)


def cached_document(key: _DocKey) -> pymupdf.Document:
    """The document of `key`, opened on first use (call under `mupdf_lock`)."""
    document = _documents.get(key)
    if document is not None:
        return document
    try:
        document = pymupdf.open(key[0], filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several unrelated types here
        raise UnsupportedDocument(f"the file cannot be opened as a PDF: {exc}") from exc
    if document.needs_pass and not document.authenticate(""):
        document.close()
        raise UnsupportedDocument("the PDF is protected by a password")
    _documents.put(key, document)
    return document


def load_page(document: pymupdf.Document, page_index: int) -> pymupdf.Page:
    """The 0-based page `page_index`; `PageOutOfRange` when there is none."""
    if not 0 <= page_index < document.page_count:
        raise PageOutOfRange(
            f"page {page_index} does not exist: the document has "
            f"{document.page_count} pages, counted from 0"
        )
    return document[page_index]


def page_text(path: str, page_index: int) -> PageText:
    """The extracted text of the 0-based page, from the cache when it is there."""
    with mupdf_lock:
        key = document_key(path)
        cached = _pages.get((key, page_index))
        if cached is not None:
            return cached
        page = load_page(cached_document(key), page_index)
        with engine_failures(f"the text of page {page_index} cannot be read"):
            built = extract_page(page, page_index)
        _pages.put((key, page_index), built)
        return built
