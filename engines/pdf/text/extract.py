"""A page's text as extracted once: its lines, characters and links.

Rects are in displayed-page space (decisions §4): points, origin at the top-left
corner of the page as displayed (CropBox, /Rotate applied), y down. Page indexes
count from 0.
"""

from __future__ import annotations

import dataclasses
import struct
from array import array
from dataclasses import dataclass, field
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt
import pymupdf

from engines.pdf import collector, geometry
from engines.pdf.fonts import glyph_text_page, lying_fonts
from engines.pdf.glyphs import capped_box, is_tall, strip_subset_prefix
from engines.pdf.text.breaks import insert_breaks
from engines.pdf.text.chars import RawChars
from engines.pdf.text.folding import Fold, Folded, fold_text
from engines.pdf.text.spacing import letter_spacing
from engines.pdf.types import Link

# Ligatures are kept as one character (and folded to their letters when searching),
# so a match never cuts a glyph in two. Images are not needed and would cost memory.
_EXTRACT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
)
_mupdf = pymupdf.mupdf


@dataclass(frozen=True, slots=True)
class Line:
    """One extracted line. Rects are displayed space, 4 floats per character."""

    text: str
    rects: array[float]
    span_starts: tuple[int, ...]  # index of the first character of each span
    span_fonts: tuple[tuple[str, float], ...]  # (font without prefix, size) per span
    block: int
    rotation: int
    # A reading of the line through its glyphs' encoding, where a font's
    # /ToUnicode says other letters (`fonts`): searched, never listed.
    alternate: bool = False

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
    with collector.paused():
        lines = _lines(page)
        lying = lying_fonts(page, forms=True)
        if lying:
            lines += _glyph_readings(page, lying, lines)
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


def _glyph_readings(
    page: pymupdf.Page, fonts: list[int], lines: list[Line]
) -> list[Line]:
    """The lines as the glyphs of `fonts` show them, where that differs from
    what their /ToUnicode says, as alternate lines after the page's own."""
    with glyph_text_page(page, fonts) as shown:
        if shown is None:
            return []
        readings = _lines(shown)
    said = {line.text for line in lines}
    return [
        dataclasses.replace(line, alternate=True)
        for line in readings
        if line.text not in said
    ]


def _lines(page: pymupdf.Page) -> list[Line]:
    """The visible lines of `page`; MuPDF's rawdict is freed on return."""
    rotation = page.rotation
    blocks = page.get_textpage(flags=_EXTRACT_FLAGS).extractRAWDICT()["blocks"]
    # The page's spans and characters are taken at once, with C-level maps, and their
    # boxes transformed and tested as one array: a Python step per character cost
    # more than MuPDF's extraction itself.
    raw_lines = [raw for block in blocks for raw in block.get("lines", ())]
    line_blocks = [
        number for number, block in enumerate(blocks) for _ in block.get("lines", ())
    ]
    line_spans = list(map(_line_spans, raw_lines))
    spans = list(chain.from_iterable(line_spans))
    span_chars = list(map(_span_chars, spans))
    # Offset of each span's first character in the page; one past the end last.
    span_offsets = list(accumulate(map(len, span_chars), initial=0))
    fonts = _Fonts()
    span_fonts = list(map(fonts.__getitem__, map(_span_font, spans)))
    chars = list(chain.from_iterable(span_chars))
    texts = list(map(_char_text, chars))
    packed = struct.pack(
        f"{4 * len(chars)}d", *chain.from_iterable(map(_char_box, chars))
    )
    boxes = np.frombuffer(packed, np.float64).reshape(-1, 4)
    boxes = _capped(boxes, raw_lines, line_spans, span_offsets)
    synthetic = list(map(_char_synthetic, chars))
    taken = insert_breaks(
        RawChars(
            texts, synthetic, boxes, raw_lines, line_spans, span_offsets, span_fonts
        )
    )
    texts, span_offsets = taken.texts, taken.span_offsets
    rects = geometry.display_boxes_transformer(page, rotation)(taken.boxes)
    visible = _visible(rects, page.rect)
    if any(taken.synthetic):
        spacing = letter_spacing(taken)
        if spacing:
            visible[spacing] = False
    page_chars = _PageChars(
        texts=texts,
        data=rects.tobytes(),
        keep=None if visible.all() else visible.tolist(),
        span_offsets=span_offsets,
        span_fonts=span_fonts,
    )
    lines: list[Line] = []
    first_span = 0
    for raw, block, own_spans in zip(raw_lines, line_blocks, line_spans, strict=True):
        end_span = first_span + len(own_spans)
        line = _line(page_chars, first_span, end_span, block, raw["dir"], rotation)
        if line is not None:
            lines.append(line)
        first_span = end_span
    return lines


def _capped(
    boxes: geometry.Boxes,
    raw_lines: list[dict[str, Any]],
    line_spans: list[list[dict[str, Any]]],
    span_offsets: list[int],
) -> geometry.Boxes:
    """`boxes` with the glyphs of implausibly tall horizontal spans cut down to
    their line (`glyphs.capped_box`); the same array when there are none."""
    span = 0
    out = boxes
    for raw, spans in zip(raw_lines, line_spans, strict=True):
        cos, sin = raw["dir"]
        for item in spans:
            if abs(cos) >= abs(sin) and is_tall(item["bbox"], item["size"], True):
                if out is boxes:
                    out = boxes.copy()
                for index, char in enumerate(item["chars"], span_offsets[span]):
                    out[index] = capped_box(char["bbox"], char["origin"], item["size"])
            span += 1
    return out


_line_spans = itemgetter("spans")
_span_chars = itemgetter("chars")
_span_font = itemgetter("font", "size")
_char_text = itemgetter("c")
_char_box = itemgetter("bbox")
_char_synthetic = itemgetter("synthetic")
_BOX_BYTES = 4 * 8  # one displayed-space box: four float64


class _Fonts(dict[tuple[str, float], tuple[str, float]]):
    """A span's (font, size) → (font without subset prefix, size), made once a page:
    a page has hundreds of spans in a few fonts."""

    def __missing__(self, key: tuple[str, float]) -> tuple[str, float]:
        value = (strip_subset_prefix(key[0]), float(key[1]))
        self[key] = value
        return value


@dataclass(frozen=True, slots=True)
class _PageChars:
    """Every character of a page in rawdict order, with its span's data."""

    texts: list[str]
    data: bytes  # displayed-space boxes, 4 float64 per character
    keep: list[bool] | None  # whether each character is visible; None: all are
    span_offsets: list[int]  # first character of each span, then the total
    span_fonts: list[tuple[str, float]]


def _visible(rects: geometry.Boxes, page_rect: pymupdf.Rect) -> npt.NDArray[np.bool_]:
    """Which characters have their centre on the displayed page (in the CropBox):
    text outside it is not visible, so it must not be found."""
    with np.errstate(all="ignore"):  # an infinite box has a NaN centre, hidden
        x = (rects[:, 0] + rects[:, 2]) / 2
        y = (rects[:, 1] + rects[:, 3]) / 2
    return (
        (page_rect.x0 <= x)
        & (x <= page_rect.x1)
        & (page_rect.y0 <= y)
        & (y <= page_rect.y1)
    )


def _line(
    chars: _PageChars,
    first_span: int,
    end_span: int,
    block: int,
    direction: tuple[float, float],
    page_rotation: int,
) -> Line | None:
    """The spans [first_span, end_span) of the page as a Line, less the characters
    that are not visible; None when no character is left."""
    offsets = chars.span_offsets
    start, end = offsets[first_span], offsets[end_span]
    keep = chars.keep
    if keep is None or all(keep[start:end]):
        if start == end:
            return None
        text = "".join(chars.texts[start:end])
        rects = array("d", chars.data[start * _BOX_BYTES : end * _BOX_BYTES])
        span_starts = tuple([offset - start for offset in offsets[first_span:end_span]])
    else:
        kept: list[str] = []
        rects = array("d")
        starts: list[int] = []
        for span in range(first_span, end_span):
            starts.append(len(kept))
            for index in range(offsets[span], offsets[span + 1]):
                if keep[index]:
                    kept.append(chars.texts[index])
                    box = chars.data[index * _BOX_BYTES : (index + 1) * _BOX_BYTES]
                    rects.frombytes(box)
        if not kept:
            return None
        text = "".join(kept)
        span_starts = tuple(starts)
    return Line(
        text=text,
        rects=rects,
        span_starts=span_starts,
        span_fonts=tuple(chars.span_fonts[first_span:end_span]),
        block=block,
        rotation=geometry.line_rotation((direction[0], direction[1]), page_rotation),
    )


def _links(page: pymupdf.Page) -> tuple[Link, ...]:
    # page.get_links() resolves named destinations by loading every page of the
    # document (0.8 s on a 1,158-page manual); one target takes about 10 µs.
    # MuPDF's own link list is walked: PyMuPDF's `Link.next` reads the page's
    # annotation list twice for every link (half the time of a cold page's links).
    links: list[Link] = []
    # A page often links twice to one place; each resolution searches the names.
    targets: dict[str, object] = {}
    link = _mupdf.fz_load_links(page.this)
    while link.m_internal:
        uri = link.uri()
        # Unlike text extraction, MuPDF reports link rectangles already in displayed
        # space (rotation and CropBox applied); a test pins this.
        rect = link.rect()
        position = geometry.rect_to_box(
            pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1)
        )
        if uri and _mupdf.fz_is_external_link(uri):
            links.append(Link(action="URI", destination=uri, position=position))
        elif uri:
            target = targets.get(uri)
            if target is None:
                target = targets[uri] = page.parent.resolve_link(uri)[0]
            if isinstance(target, int) and target >= 0:
                links.append(
                    Link(action="GOTO", destination=str(target), position=position)
                )
        link = link.next()
    return tuple(links)
