"""Text of PDF pages: search (decisions §5), line listing and page rendering.

Every position returned is in displayed-page space (decisions §4): points, origin at
the top-left corner of the page as displayed (CropBox, /Rotate applied), y down.
Page indexes count from 0.

Opened documents and extracted page text are kept in small LRU caches, so repeated
searches on a large document neither re-open nor re-parse it. A cached document is
shared: callers of `open_document` must only read it (no edits, no `close()`).
PyMuPDF is not thread-safe, so all MuPDF calls of this module run under one lock;
regex matching runs outside it, on plain Python strings.
"""

from __future__ import annotations

import bisect
import functools
import os
import re
import threading
import unicodedata
from array import array
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import pymupdf
import regex

from documents.pdf import geometry
from documents.pdf.types import (
    EngineError,
    Link,
    PositionText,
    SearchQuery,
    UnsupportedDocument,
)

__all__ = [
    "PageOutOfRange",
    "SearchError",
    "clear_cache",
    "configure_cache",
    "open_document",
    "page_lines",
    "render_page_png",
    "search_page",
]


class SearchError(EngineError):
    """The search pattern cannot be used (invalid, too long or too slow) → 400."""


class PageOutOfRange(EngineError):
    """The page index does not exist in the document → 400."""


# Ligatures are kept as one character (and folded to their letters when searching),
# so a match never cuts a glyph in two. Images are not needed and would cost memory.
_EXTRACT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
)
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_MAX_RENDER_WIDTH = 10_000

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


@dataclass(frozen=True, slots=True)
class _Line:
    """One extracted line. Rects are displayed space, 4 floats per character."""

    text: str
    rects: array[float]
    span_starts: tuple[int, ...]  # index of the first character of each span
    span_fonts: tuple[tuple[str, float], ...]  # (font without prefix, size) per span
    block: int
    rotation: int

    def rect(self, index: int) -> tuple[float, float, float, float]:
        r = self.rects
        return (r[4 * index], r[4 * index + 1], r[4 * index + 2], r[4 * index + 3])

    def font(self, index: int) -> tuple[str, float]:
        span = 0
        for number, start in enumerate(self.span_starts):
            if start > index:
                break
            span = number
        return self.span_fonts[span]


@dataclass(frozen=True, slots=True)
class _Folded:
    """Folded page text and, per folded character, the index of its original one."""

    text: str
    origin: array[int]
    emits: bytes  # per original character: 1 if it produced folded text


@dataclass(slots=True)
class _PageText:
    """Extracted text of one page. Immutable once built, apart from the fold memo."""

    page: int
    lines: tuple[_Line, ...]
    line_starts: tuple[int, ...]  # offset of each line in `text`
    text: str  # the lines joined by one space
    links: tuple[Link, ...]
    folds: dict[_Fold, _Folded] = field(default_factory=dict)

    def folded(self, fold: _Fold) -> _Folded:
        cached = self.folds.get(fold)
        if cached is None:
            cached = _fold_text(self.text, fold)
            self.folds[fold] = cached
        return cached


_mupdf_lock = threading.RLock()
_documents: _Lru[_DocKey, pymupdf.Document] = _Lru(16)
_pages: _Lru[tuple[_DocKey, int], _PageText] = _Lru(256)


def configure_cache(*, documents: int = 16, pages: int = 256) -> None:
    """Set how many opened documents and extracted pages are kept (LRU)."""
    _documents.resize(max(1, documents))
    _pages.resize(max(1, pages))


def clear_cache() -> None:
    """Forget every cached document and page text (e.g. after deleting files)."""
    with _mupdf_lock:
        _documents.clear()
        _pages.clear()


def open_document(path: str) -> pymupdf.Document:
    """The PDF at `path`, opened once and cached by (path, mtime, size).

    The document is shared with other callers: read it, never modify or close it.
    Documents encrypted with an empty user password are opened; any other password
    or an unreadable file raises `UnsupportedDocument`.
    """
    with _mupdf_lock:
        return _open(_document_key(path))


def search_page(
    path: str,
    page_index: int,
    query: SearchQuery,
    *,
    regex_timeout: float = 1.0,
    max_pattern_length: int = 1000,
) -> list[PositionText]:
    """Matches of `query` on the 0-based page `page_index`, one result per line touched.

    Matching follows decisions §5: page text in reading order, lines joined by one
    space, whitespace runs matched as one space; compatibility forms always folded
    (ligatures, Arabic presentation forms, no-break space), full Unicode case folding
    unless case sensitive, combining marks removed after NFKD unless accent
    sensitive. A regex is Python `regex` syntax, limited to `max_pattern_length`
    characters and `regex_timeout` seconds; empty matches are skipped.

    Each result's `text` is the original text of the match on that line, `position`
    its exact box in displayed space (points) and `individual_widths` one extent per
    character along the line's direction: they sum to `position.w` on horizontal
    lines (rotation 0/180) and to `position.h` on vertical ones (90/270).
    Right-to-left runs come out of MuPDF in logical order (it orders them by glyph
    position, whatever order the PDF draws them in), so the spelling a user types
    matches; `right_to_left` is true when the text holds Hebrew/Arabic letters.
    Raises `SearchError` for a bad or too slow pattern, `PageOutOfRange`,
    `UnsupportedDocument` when the file cannot be opened.
    """
    if len(query.text) > max_pattern_length:
        raise SearchError(f"search text is longer than {max_pattern_length} characters")
    page = _page_text(path, page_index)
    if query.regex:
        spans = _regex_spans(page, query, regex_timeout)
    else:
        spans = _plain_spans(page, query)
    results: list[PositionText] = []
    for start, end in spans:
        results.extend(_results_for_span(page, start, end))
    return results


def page_lines(path: str, page_index: int) -> list[PositionText]:
    """Every text line of the 0-based page, in reading order, for text selection.

    Geometry as in `search_page`; leading and trailing spaces are left out and
    blank lines skipped. `link` is a link lying under any character of the line.
    """
    page = _page_text(path, page_index)
    results: list[PositionText] = []
    for line in page.lines:
        first, last = _trim_whitespace(line.text, 0, len(line.text))
        if first < last:
            results.append(_position_text(page, line, first, last))
    return results


def render_page_png(path: str, page_index: int, width: int) -> bytes:
    """PNG of the 0-based page as displayed (rotation applied), `width` pixels wide."""
    if not 1 <= width <= _MAX_RENDER_WIDTH:
        raise EngineError(f"width must be between 1 and {_MAX_RENDER_WIDTH} pixels")
    with _mupdf_lock:
        key = _document_key(path)
        page = _load_page(_open(key), page_index)
        # page.rect is the displayed page, so the zoom maps its width onto `width`.
        zoom = width / page.rect.width
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        return pixmap.tobytes("png")


# --- documents and pages -------------------------------------------------------


def _document_key(path: str) -> _DocKey:
    absolute = os.path.abspath(path)
    try:
        stat = os.stat(absolute)
    except OSError as exc:
        raise EngineError(f"the document file cannot be read: {exc.strerror}") from exc
    return (absolute, stat.st_mtime_ns, stat.st_size)


def _open(key: _DocKey) -> pymupdf.Document:
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


def _load_page(document: pymupdf.Document, page_index: int) -> pymupdf.Page:
    if not 0 <= page_index < document.page_count:
        raise PageOutOfRange(
            f"page {page_index} does not exist: the document has "
            f"{document.page_count} pages, counted from 0"
        )
    return document[page_index]


def _page_text(path: str, page_index: int) -> _PageText:
    with _mupdf_lock:
        key = _document_key(path)
        cached = _pages.get((key, page_index))
        if cached is not None:
            return cached
        page = _load_page(_open(key), page_index)
        built = _extract(page, page_index)
        _pages.put((key, page_index), built)
        return built


def _extract(page: pymupdf.Page, page_index: int) -> _PageText:
    matrix = page.rotation_matrix
    visible = page.rect  # the displayed page
    lines: list[_Line] = []
    text_blocks = page.get_text("rawdict", flags=_EXTRACT_FLAGS)["blocks"]
    for block_number, block in enumerate(text_blocks):
        for raw_line in block.get("lines", ()):
            line = _line(raw_line, block_number, page.rotation, matrix, visible)
            if line is not None:
                lines.append(line)
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line.text) + 1
    return _PageText(
        page=page_index,
        lines=tuple(lines),
        line_starts=tuple(starts),
        text=" ".join(line.text for line in lines),
        links=_links(page),
    )


def _line(
    raw: dict[str, Any],
    block: int,
    page_rotation: int,
    matrix: pymupdf.Matrix,
    visible: pymupdf.Rect,
) -> _Line | None:
    chars: list[str] = []
    rects: array[float] = array("d")
    span_starts: list[int] = []
    span_fonts: list[tuple[str, float]] = []
    for span in raw["spans"]:
        span_starts.append(len(chars))
        span_fonts.append((_SUBSET_PREFIX.sub("", span["font"]), float(span["size"])))
        for char in span["chars"]:
            rect = _to_display(char["bbox"], matrix)
            # Text outside the CropBox is not visible, so it must not be found.
            x, y = (rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2
            if not (visible.x0 <= x <= visible.x1 and visible.y0 <= y <= visible.y1):
                continue
            chars.append(char["c"])
            rects.extend((rect.x0, rect.y0, rect.x1, rect.y1))
    if not chars:
        return None
    return _Line(
        text="".join(chars),
        rects=rects,
        span_starts=tuple(span_starts),
        span_fonts=tuple(span_fonts),
        block=block,
        rotation=geometry.line_rotation(tuple(raw["dir"]), page_rotation),
    )


def _to_display(bbox: Sequence[float], matrix: pymupdf.Matrix) -> pymupdf.Rect:
    # Same as geometry.page_rect_to_display(page, rect), with the page's rotation
    # matrix fetched once per page: the property costs ~25 µs a call, which is most
    # of the extraction time on a page of a few thousand characters.
    return pymupdf.Rect(bbox) * matrix


def _links(page: pymupdf.Page) -> tuple[Link, ...]:
    # page.get_links() resolves named destinations by loading every page of the
    # document (0.8 s on a 1,158-page manual); resolving each target is ~0.2 ms.
    links: list[Link] = []
    link = page.first_link
    while link is not None:
        # Unlike text extraction, MuPDF reports link rectangles already in displayed
        # space (rotation and CropBox applied); a test pins this.
        position = geometry.rect_to_box(link.rect)
        if link.uri and link.is_external:
            links.append(Link(action="URI", destination=link.uri, position=position))
        elif link.uri:
            target = page.parent.resolve_link(link.uri)[0]
            if isinstance(target, int) and target >= 0:
                links.append(
                    Link(action="GOTO", destination=str(target), position=position)
                )
        link = link.next
    return tuple(links)


# --- folding and matching ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fold:
    """How text is made searchable. Compatibility forms are always folded."""

    casefold: bool
    strip_marks: bool
    # Plain search compares decomposed text (so a PDF's "e" + U+0301 equals "é");
    # regex search compares composed text, so that a class like [éè] still sees
    # one character per accented letter.
    compose: bool = False

    @classmethod
    def for_plain(cls, query: SearchQuery) -> _Fold:
        return cls(not query.case_sensitive, not query.accent_sensitive)

    @classmethod
    def for_regex(cls, query: SearchQuery) -> _Fold:
        # Case is left to the regex engine (FULLCASE: ß ~ SS), so that classes such
        # as [A-Z] keep their meaning when the search is case sensitive.
        return cls(False, not query.accent_sensitive, compose=True)


@functools.lru_cache(maxsize=65536)
def _fold_char(char: str, fold: _Fold) -> str:
    """The searchable form of one character (possibly several, possibly none)."""
    folded = unicodedata.normalize("NFKD", char)
    if fold.casefold:
        folded = unicodedata.normalize("NFKD", folded.casefold())
    kept: list[str] = []
    for part in folded:
        category = unicodedata.category(part)
        if category == "Cf" or (fold.strip_marks and category == "Mn"):
            continue  # soft hyphens, bidi and zero-width marks; accents if asked
        kept.append(" " if part.isspace() else part)
    joined = "".join(kept)
    return unicodedata.normalize("NFC", joined) if fold.compose else joined


def _fold_text(text: str, fold: _Fold) -> _Folded:
    out: list[str] = []
    origin: array[int] = array("l")
    emits = bytearray(len(text))
    previous_space = True  # leading whitespace never matters
    for index, char in enumerate(text):
        for part in _fold_char(char, fold):
            if fold.compose and out and unicodedata.combining(part):
                # A mark drawn as its own character ("e" + U+0301) joins its letter.
                merged = unicodedata.normalize("NFC", out[-1] + part)
                if len(merged) == 1:
                    out[-1] = merged
                    continue
            if part == " ":
                if previous_space:
                    continue
                previous_space = True
            else:
                previous_space = False
            out.append(part)
            origin.append(index)
            emits[index] = 1
    return _Folded(text="".join(out), origin=origin, emits=bytes(emits))


def _plain_spans(page: _PageText, query: SearchQuery) -> Iterator[tuple[int, int]]:
    fold = _Fold.for_plain(query)
    needle = _fold_text(query.text, fold).text
    if not needle:
        return
    folded = page.folded(fold)
    start = folded.text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if _splits_letter(folded.text, start, end):
            start = folded.text.find(needle, start + 1)
            continue
        yield _original_span(page, folded, start, end)
        start = folded.text.find(needle, end)


def _regex_spans(
    page: _PageText, query: SearchQuery, timeout: float
) -> list[tuple[int, int]]:
    fold = _Fold.for_regex(query)
    flags = 0 if query.case_sensitive else regex.IGNORECASE | regex.FULLCASE
    try:
        pattern = regex.compile(_fold_pattern(query.text, fold), flags)
    except regex.error as exc:
        raise SearchError(f"invalid regular expression: {exc}") from exc
    folded = page.folded(fold)
    spans: list[tuple[int, int]] = []
    try:
        for match in pattern.finditer(folded.text, timeout=timeout, concurrent=True):
            start, end = match.span()
            if end > start and not _splits_letter(folded.text, start, end):
                spans.append(_original_span(page, folded, start, end))
    except TimeoutError as exc:
        raise SearchError(
            f"regular expression took longer than {timeout:g} s; simplify it"
        ) from exc
    return spans


def _fold_pattern(pattern: str, fold: _Fold) -> str:
    """Fold the literal characters of a regex like the page text, keeping its syntax.

    A non-ASCII character (é, ﬁ, fullwidth punctuation) is replaced by its folded
    form escaped, so `（` stays a literal and never opens a group.
    """
    out: list[str] = []
    for char in pattern:
        # ASCII characters fold to themselves, so the pattern's syntax is untouched.
        out.append(char if char.isascii() else regex.escape(_fold_char(char, fold)))
    return "".join(out)


def _splits_letter(folded: str, start: int, end: int) -> bool:
    """Whether [start, end) cuts a letter from its accents (`cafe` in `café` when
    accents matter). Without accent sensitivity no marks are left to cut."""
    return unicodedata.category(folded[start]) == "Mn" or (
        end < len(folded) and unicodedata.category(folded[end]) == "Mn"
    )


def _original_span(
    page: _PageText, folded: _Folded, start: int, end: int
) -> tuple[int, int]:
    """Folded [start, end) → original [start, end) in the page text."""
    first = folded.origin[start]
    stop = folded.origin[end - 1] + 1
    # Combining marks folded away after the last letter belong to it (cafe → café).
    while (
        stop < len(page.text)
        and not folded.emits[stop]
        and not page.text[stop].isspace()
    ):
        stop += 1
    return first, stop


# --- results -------------------------------------------------------------------


def _results_for_span(page: _PageText, start: int, end: int) -> Iterator[PositionText]:
    first_line = max(0, bisect.bisect_right(page.line_starts, start) - 1)
    for number in range(first_line, len(page.lines)):
        line = page.lines[number]
        line_start = page.line_starts[number]
        line_end = line_start + len(line.text)
        if line_end <= start:
            continue  # the match starts on the joint after this line
        if line_start >= end:
            break
        first = max(start, line_start) - line_start
        last = min(end, line_end) - line_start
        # Spaces at a line break are the joint, not part of what the user sees.
        if end > line_end:
            last = _trim_whitespace(line.text, first, last)[1]
        if start < line_start:
            first = _trim_whitespace(line.text, first, last)[0]
        if line.text[first:last].strip():
            yield _position_text(page, line, first, last)


def _trim_whitespace(text: str, first: int, last: int) -> tuple[int, int]:
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return first, last


def _position_text(page: _PageText, line: _Line, first: int, last: int) -> PositionText:
    """The characters [first, last) of `line` as a PositionText."""
    rects = [line.rect(index) for index in range(first, last)]
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[2] for r in rects)
    y1 = max(r[3] for r in rects)
    text = line.text[first:last]
    font_index = first + next((i for i, c in enumerate(text) if not c.isspace()), 0)
    font, size = line.font(font_index)
    return PositionText(
        page=page.page,
        position=geometry.rect_to_box(pymupdf.Rect(x0, y0, x1, y1)),
        text=text,
        individual_widths=_widths(rects, vertical=line.rotation in (90, 270)),
        font_size=size,
        font=font,
        paragraph_id=line.block,
        right_to_left=_is_right_to_left(text),
        rotation=line.rotation,
        link=_link_under(page.links, rects),
    )


def _widths(
    rects: Sequence[tuple[float, float, float, float]], *, vertical: bool
) -> tuple[float, ...]:
    """One extent per character along the line, summing exactly to the box's extent.

    Each character gets the distance from its own start to the next character's
    start in visual order (so gaps between glyphs go to the glyph before them), the
    last one its own extent. This stays exact for right-to-left runs, overlapping
    glyphs and zero-width marks, where summing glyph widths would not.
    """
    low, high = (1, 3) if vertical else (0, 2)
    starts = [r[low] for r in rects]
    end = max(r[high] for r in rects)
    order = sorted(range(len(rects)), key=starts.__getitem__)
    next_starts = [starts[index] for index in order[1:]] + [end]
    widths = [0.0] * len(rects)
    for index, next_start in zip(order, next_starts, strict=True):
        widths[index] = next_start - starts[index]
    return tuple(widths)


def _is_right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def _link_under(
    links: Sequence[Link], rects: Sequence[tuple[float, float, float, float]]
) -> Link | None:
    """The link holding the centre of a matched character (edges merely touching
    a neighbouring line's link do not count)."""
    for link in links:
        box = link.position
        for x0, y0, x1, y1 in rects:
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
            if box.x <= x <= box.x + box.w and box.y <= y <= box.y + box.h:
                return link
    return None
