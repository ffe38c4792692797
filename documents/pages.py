"""Reads of one page: text search, text lines, rendered image (web process, cached)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from documents.models import Document
from documents.renditions.waits import wait_readable, wait_text
from documents.storage import pdf_path
from engines.pdf import text as text_engine
from engines.pdf.text.render import ImageSpec
from engines.pdf.types import PositionText, SearchQuery
from transformsvc.conf import service
from transformsvc.problems import InvalidInput, UnsupportedMedia

MAX_IMAGE_WIDTH = 4000


def _check_page(doc: Document, page: int) -> None:
    if not doc.page_count:  # wait_readable lets no document without pages through
        raise UnsupportedMedia(f"document {doc.id!r} is not a readable PDF")
    if not 0 <= page < doc.page_count:
        raise InvalidInput(
            f"page {page} (counted from 0) does not exist in document {doc.id!r} "
            f"({doc.page_count} pages)",
            errors={"pageIndex": ["out of range"]},
            code="page_out_of_range",
        )


@contextmanager
def _as_problems() -> Iterator[None]:
    """A pattern the engine refuses is a 400 naming searchText (other engine
    errors are mapped by transformsvc.problems)."""
    try:
        yield
    except text_engine.SearchError as exc:
        raise InvalidInput(str(exc), errors={"searchText": [str(exc)]}) from exc


def page_search(doc: Document, page: int, query: SearchQuery) -> list[PositionText]:
    """Matches of `query` on 0-based `page`, in displayed-page space."""
    doc = wait_text(doc)
    _check_page(doc, page)
    with pdf_path(doc) as path, _as_problems():
        return text_engine.search_page(
            str(path), page, query, regex_timeout=service().regex_timeout
        )


def page_text(doc: Document, page: int) -> list[PositionText]:
    doc = wait_text(doc)
    _check_page(doc, page)
    with pdf_path(doc) as path, _as_problems():
        return text_engine.page_lines(str(path), page)


@dataclass(frozen=True, slots=True)
class CachedImage:
    path: Path
    media_type: str  # image/png, or image/jpeg for a page that is a JPEG scan
    etag: str  # strong: documents never change, so neither do their images


def describe(spec: ImageSpec) -> str:
    """The canonical pageImageDescription of `spec` (its cache key)."""
    text = f"IM_{spec.width}_{spec.rotation}"
    f = spec.filters
    if not f.neutral:
        text += f"_FILTERS~C~{f.contrast}~B~{f.brightness}~I~{f.invert}"
    return text


def page_image(doc: Document, page: int, spec: ImageSpec) -> CachedImage:
    """The page drawn as `spec` says, cached on disk by content hash and
    description (one file per page and description)."""
    doc = wait_readable(doc)
    _check_page(doc, page)
    if not 1 <= spec.width <= MAX_IMAGE_WIDTH:
        raise InvalidInput(
            f"width must be between 1 and {MAX_IMAGE_WIDTH} pixels",
            errors={"width": ["out of range"]},
        )
    key = f"{page}-{describe(spec)}"
    folder = Path(settings.DATA_DIR) / "cache" / "pages" / doc.sha256
    etag = f'"{doc.sha256[:24]}-{key}"'
    for suffix, media_type in ((".png", "image/png"), (".jpg", "image/jpeg")):
        if (folder / (key + suffix)).exists():
            return CachedImage(folder / (key + suffix), media_type, etag)
    folder.mkdir(parents=True, exist_ok=True)
    with pdf_path(doc) as path, _as_problems():
        image = text_engine.render_page(str(path), page, spec)
    cached = folder / (key + (".jpg" if image.media_type == "image/jpeg" else ".png"))
    partial = cached.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
    partial.write_bytes(image.data)
    os.replace(partial, cached)  # atomic: concurrent renders never expose half a file
    return CachedImage(cached, image.media_type, etag)
