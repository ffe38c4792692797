"""Text of PDF pages: search (decisions §5), line listing and page rendering.

Every position returned is in displayed-page space (decisions §4): points, origin at
the top-left corner of the page as displayed (CropBox, /Rotate applied), y down.
Page indexes count from 0.

Opened documents and extracted page text are kept in small LRU caches, so repeated
searches on a large document neither re-open nor re-parse it. A cached document is
shared: callers of `open_document` must only read it (no edits, no `close()`).
PyMuPDF is not thread-safe, so all MuPDF calls of this package run under one lock;
regex matching runs outside it, on plain Python strings.

Layout: `cache` (opened documents, extracted pages, the lock), `extract` (a page's
lines and links), `breaks` (word breaks a PDF draws as a gap, not a space),
`spacing` (spaces MuPDF makes between letter-spaced glyphs), `folding` (searchable
forms of text), `search` (search and line listing), `results` (PositionText of
matched characters), `render` (page images).
"""

from engines.errors import PageOutOfRange, SearchError
from engines.pdf.text.cache import clear_cache, configure_cache, open_document
from engines.pdf.text.render import (
    ImageFilters,
    ImageSpec,
    PageImage,
    render_page,
    render_page_png,
)
from engines.pdf.text.search import page_lines, search_page

__all__ = [
    "PageOutOfRange",
    "SearchError",
    "clear_cache",
    "configure_cache",
    "open_document",
    "page_lines",
    "render_page",
    "render_page_png",
    "ImageFilters",
    "ImageSpec",
    "PageImage",
    "search_page",
]
