"""PositionText of a changed line (only computed for reported changes).

Word and character rects come in PyMuPDF page space and leave in displayed-page
space (points, decisions §4), converted through `geometry`. Pages count from 0.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

import pymupdf

from engines.pdf import geometry
from engines.pdf.compare.tokens import Side, word_text
from engines.pdf.glyphs import strip_subset_prefix
from engines.pdf.types import Box, PositionText


def position_text(side: Side, line: list[tuple[int, int]]) -> PositionText:
    """The changed words of one line; font and widths come from the page's chars.

    `font`/`font_size` are those of the first character's span ("" and 0 when the
    characters cannot be found); `individual_widths` has one entry per character
    of `text` (spaces between words included) and sums to `position.w`.
    """
    page_index = line[0][0]
    pw = side.words[page_index]
    page = side.doc[page_index]
    words = [word_text(side, page_index, k) for _, k in line]
    rects = [pymupdf.Rect(*pw.rects[4 * k : 4 * k + 4]) for _, k in line]
    union = _union(rects)
    box = geometry.rect_to_box(geometry.page_rect_to_display(page, union))
    raw_line, chars = _chars_in(side.lines_near(page_index, union), rects)
    direction = (
        (float(raw_line["dir"][0]), float(raw_line["dir"][1]))
        if raw_line
        else (1.0, 0.0)
    )
    span = chars[0][0][1] if chars and chars[0] else {}
    text = " ".join(words)
    return PositionText(
        page=page_index,
        position=box,
        text=text,
        individual_widths=_widths(words, rects, chars, direction, box),
        font_size=float(span.get("size", 0.0)),
        font=strip_subset_prefix(span.get("font", "")),
        paragraph_id=pw.blocks[line[0][1]],
        right_to_left=_is_rtl(text),
        rotation=geometry.line_rotation(direction, page.rotation),
    )


_Char = tuple[dict[str, Any], dict[str, Any]]  # (char, its span)


def _union(rects: Sequence[pymupdf.Rect]) -> pymupdf.Rect:
    """The smallest rect holding all of `rects` (at least one), in their space."""
    union = pymupdf.Rect(rects[0])
    for rect in rects[1:]:
        union |= rect
    return union


def _chars_in(
    lines: list[dict[str, Any]], rects: list[pymupdf.Rect]
) -> tuple[dict[str, Any] | None, list[list[_Char]]]:
    """The rawdict line holding the words and, per word, its characters."""
    union = _union(rects)
    best: tuple[int, dict[str, Any] | None, list[list[_Char]]] = (0, None, [])
    for line in lines:
        if not pymupdf.Rect(line["bbox"]).intersects(union):
            continue
        per_word = _chars_per_word(line, rects)
        found = sum(len(chars) for chars in per_word)
        if found > best[0]:
            best = (found, line, per_word)
    return best[1], best[2]


def _chars_per_word(
    line: dict[str, Any], rects: list[pymupdf.Rect]
) -> list[list[_Char]]:
    per_word: list[list[_Char]] = [[] for _ in rects]
    for span in line["spans"]:
        for char in span["chars"]:
            if char["c"].isspace():
                continue
            x0, y0, x1, y1 = char["bbox"]
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            for n, rect in enumerate(rects):
                if rect.x0 <= cx <= rect.x1 and rect.y0 <= cy <= rect.y1:
                    per_word[n].append((char, span))
                    break
    return per_word


def _widths(
    words: list[str],
    rects: list[pymupdf.Rect],
    chars: list[list[_Char]],
    direction: tuple[float, float],
    box: Box,
) -> tuple[float, ...]:
    """Per-character advances along the line, scaled to sum to `box.w`."""
    dx, dy = direction[0], direction[1]

    def extent(bbox: Sequence[float]) -> tuple[float, float]:
        values = [
            x * dx + y * dy for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])
        ]
        return min(values), max(values)

    widths: list[float] = []
    previous_end: float | None = None
    for n, word in enumerate(words):
        rect = rects[n]
        start, end = extent((rect.x0, rect.y0, rect.x1, rect.y1))
        if previous_end is not None:
            widths.append(max(start - previous_end, 0.0))  # the space
        found = chars[n] if n < len(chars) else []
        spans = [extent(c["bbox"]) for c, _ in found]
        starts = [a for a, _ in spans] + [end]
        if len(found) == len(word) and starts == sorted(starts):
            # Successive starts include kerning and sum to the word's extent.
            widths += [starts[i + 1] - starts[i] for i in range(len(word))]
        elif len(found) == len(word):  # right-to-left glyph order
            widths += [b - a for a, b in spans]
        else:
            widths += [(end - start) / max(len(word), 1)] * len(word)
        previous_end = end
    total = sum(widths)
    if total <= 0:
        return tuple(box.w / len(widths) for _ in widths) if widths else ()
    return tuple(w * box.w / total for w in widths)


def _is_rtl(text: str) -> bool:
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
