"""A page's text as extracted once: its lines, characters and links.

Rects are in displayed-page space (decisions §4): points, origin at the top-left
corner of the page as displayed (CropBox, /Rotate applied), y down. Page indexes
count from 0.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from documents.pdf import geometry
from documents.pdf.glyphs import strip_subset_prefix
from documents.pdf.text.folding import Fold, Folded, fold_text
from documents.pdf.types import Link

# Ligatures are kept as one character (and folded to their letters when searching),
# so a match never cuts a glyph in two. Images are not needed and would cost memory.
_EXTRACT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
)


@dataclass(frozen=True, slots=True)
class Line:
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


@dataclass(slots=True)
class PageText:
    """Extracted text of one page. Immutable once built, apart from the fold memo."""

    page: int
    lines: tuple[Line, ...]
    line_starts: tuple[int, ...]  # offset of each line in `text`
    text: str  # the lines joined by one space
    links: tuple[Link, ...]
    folds: dict[Fold, Folded] = field(default_factory=dict)

    def folded(self, fold: Fold) -> Folded:
        cached = self.folds.get(fold)
        if cached is None:
            cached = fold_text(self.text, fold)
            self.folds[fold] = cached
        return cached


def extract_page(page: pymupdf.Page, page_index: int) -> PageText:
    """The lines (displayed space) and links of `page`, 0-based `page_index`."""
    transform = geometry.display_transformer(page)
    visible = page.rect  # the displayed page
    lines: list[Line] = []
    text_blocks = page.get_text("rawdict", flags=_EXTRACT_FLAGS)["blocks"]
    for block_number, block in enumerate(text_blocks):
        for raw_line in block.get("lines", ()):
            line = _line(raw_line, block_number, page.rotation, transform, visible)
            if line is not None:
                lines.append(line)
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line.text) + 1
    return PageText(
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
    transform: Callable[[Sequence[float]], geometry.RectTuple],
    visible: pymupdf.Rect,
) -> Line | None:
    chars: list[str] = []
    rects: array[float] = array("d")
    span_starts: list[int] = []
    span_fonts: list[tuple[str, float]] = []
    left, top, right, bottom = visible.x0, visible.y0, visible.x1, visible.y1
    for span in raw["spans"]:
        span_starts.append(len(chars))
        span_fonts.append((strip_subset_prefix(span["font"]), float(span["size"])))
        for char in span["chars"]:
            rect = transform(char["bbox"])
            # Text outside the CropBox is not visible, so it must not be found.
            x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
            if not (left <= x <= right and top <= y <= bottom):
                continue
            chars.append(char["c"])
            rects.extend(rect)
    if not chars:
        return None
    return Line(
        text="".join(chars),
        rects=rects,
        span_starts=tuple(span_starts),
        span_fonts=tuple(span_fonts),
        block=block,
        rotation=geometry.line_rotation(tuple(raw["dir"]), page_rotation),
    )


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
