"""Reads of one page: text search, text lines, rendered image (web process, cached)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from documents.models import Document
from documents.pdf import text as text_engine
from documents.pdf.types import EngineError, PositionText, SearchQuery
from documents.services import local_path, pdf_of
from transformsvc.problems import InvalidInput, UnsupportedMedia

MAX_IMAGE_WIDTH = 4000


def _check_page(doc: Document, page: int) -> None:
    if not doc.page_count:
        raise UnsupportedMedia(f"document {doc.id!r} is not a readable PDF")
    if not 0 <= page < doc.page_count:
        raise InvalidInput(
            f"page {page} (counted from 0) does not exist in document {doc.id!r} "
            f"({doc.page_count} pages)",
            errors={"pageIndex": ["out of range"]},
        )


@contextmanager
def _as_problems() -> Iterator[None]:
    """The engine's refusals (bad pattern, unreadable or oversized page) → 400."""
    try:
        yield
    except text_engine.SearchError as exc:
        raise InvalidInput(str(exc), errors={"searchText": [str(exc)]}) from exc
    except EngineError as exc:
        raise InvalidInput(str(exc)) from exc


def page_search(doc: Document, page: int, query: SearchQuery) -> list[PositionText]:
    """Matches of `query` on 0-based `page`, in displayed-page space."""
    _check_page(doc, page)
    with local_path(pdf_of(doc)) as path, _as_problems():
        return text_engine.search_page(
            str(path), page, query, regex_timeout=settings.TRANSFORMSVC["REGEX_TIMEOUT"]
        )


def page_text(doc: Document, page: int) -> list[PositionText]:
    _check_page(doc, page)
    with local_path(pdf_of(doc)) as path, _as_problems():
        return text_engine.page_lines(str(path), page)


def page_image(doc: Document, page: int, width: int) -> Path:
    """A PNG of the page, `width` pixels wide, cached on disk by content hash."""
    _check_page(doc, page)
    if not 1 <= width <= MAX_IMAGE_WIDTH:
        raise InvalidInput(
            f"width must be between 1 and {MAX_IMAGE_WIDTH} pixels",
            errors={"width": ["out of range"]},
        )
    cached = (
        Path(settings.DATA_DIR) / "cache" / "pages" / doc.sha256 / f"{page}-{width}.png"
    )
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        with local_path(pdf_of(doc)) as path, _as_problems():
            png = text_engine.render_page_png(str(path), page, width)
        partial = cached.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(png)
        os.replace(
            partial, cached
        )  # atomic: concurrent renders never expose half a file
    return cached
