"""Page images: a page of a cached document drawn as PNG."""

from __future__ import annotations

import pymupdf

from documents.pdf.failures import engine_failures, render_scale
from documents.pdf.text.cache import (
    cached_document,
    document_key,
    load_page,
    mupdf_lock,
)
from documents.pdf.types import EngineError

_MAX_RENDER_WIDTH = 10_000


def render_page_png(path: str, page_index: int, width: int) -> bytes:
    """PNG of the 0-based page as displayed (rotation applied), `width` pixels wide."""
    if not 1 <= width <= _MAX_RENDER_WIDTH:
        raise EngineError(f"width must be between 1 and {_MAX_RENDER_WIDTH} pixels")
    with mupdf_lock:
        key = document_key(path)
        page = load_page(cached_document(key), page_index)
        # page.rect is the displayed page, so the zoom maps its width onto `width`.
        zoom = width / page.rect.width
        if render_scale(page.rect.width, page.rect.height, zoom) < zoom:
            most = int(
                render_scale(page.rect.width, page.rect.height, zoom) * page.rect.width
            )
            raise EngineError(
                f"page {page_index} is too large to draw {width} px wide; "
                f"ask for at most {most} px"
            )
        with engine_failures(f"page {page_index} cannot be drawn"):
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            return pixmap.tobytes("png")
