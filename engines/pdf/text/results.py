"""Matched characters of a line as `PositionText`, in displayed-page space.

Positions and widths are in points (decisions §4); page indexes count from 0.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Iterator, Sequence

from engines.pdf.glyphs import has_right_to_left
from engines.pdf.text.extract import Line, PageText
from engines.pdf.types import Box, Link, PositionText


def results_for_span(page: PageText, start: int, end: int) -> Iterator[PositionText]:
    """One result per line that the page-text span [start, end) touches."""
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
            last = trim_whitespace(line.text, first, last)[1]
        if start < line_start:
            first = trim_whitespace(line.text, first, last)[0]
        if line.text[first:last].strip():
            yield position_text(page, line, first, last)


def trim_whitespace(text: str, first: int, last: int) -> tuple[int, int]:
    """[first, last) of `text` narrowed to leave out white space at either end."""
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return first, last


def position_text(page: PageText, line: Line, first: int, last: int) -> PositionText:
    """The characters [first, last) of `line` as a PositionText."""
    # The line keeps 4 floats per character: each coordinate is one strided slice.
    flat = line.rects[4 * first : 4 * last]
    lefts, tops, rights, bottoms = flat[0::4], flat[1::4], flat[2::4], flat[3::4]
    rects = list(zip(lefts, tops, rights, bottoms, strict=True))
    x0, y0, x1, y1 = min(lefts), min(tops), max(rights), max(bottoms)
    text = line.text[first:last]
    font_index = first + next((i for i, c in enumerate(text) if not c.isspace()), 0)
    font, size = line.font(font_index)
    return PositionText(
        page=page.page,
        # As pymupdf.Rect's width and height: never negative.
        position=Box(x=x0, y=y0, w=max(0, x1 - x0), h=max(0, y1 - y0)),
        text=text,
        individual_widths=_widths(rects, vertical=line.rotation in (90, 270)),
        font_size=size,
        font=font,
        paragraph_id=line.block,
        right_to_left=has_right_to_left(text),
        rotation=line.rotation,
        link=_link_under(page.links, rects, (x0, y0, x1, y1)),
    )


def single_spaced(found: PositionText) -> PositionText:
    """`found` with each run of white space (spaces, tabs, no-break spaces) as
    one space, its width the run's: the widths still sum to the box's extent."""
    text: list[str] = []
    widths: list[float] = []
    for char, width in zip(found.text, found.individual_widths, strict=True):
        if char.isspace():
            if text and text[-1] == " ":
                widths[-1] += width
                continue
            char = " "
        text.append(char)
        widths.append(width)
    joined = "".join(text)
    if joined == found.text:
        return found
    return dataclasses.replace(found, text=joined, individual_widths=tuple(widths))


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


def _link_under(
    links: Sequence[Link],
    rects: Sequence[tuple[float, float, float, float]],
    bounds: tuple[float, float, float, float],
) -> Link | None:
    """The link holding the centre of a matched character (edges merely touching
    a neighbouring line's link do not count). `bounds`: the box of `rects`, which
    holds every centre (extraction orders each box: x0 <= x1, y0 <= y1), so a
    link outside it is passed over at once."""
    if not links:
        return None
    left, top, right, bottom = bounds
    centres: list[tuple[float, float]] | None = None
    for link in links:
        box = link.position
        x0, y0 = box.x, box.y
        x1, y1 = x0 + box.w, y0 + box.h
        if x1 < left or x0 > right or y1 < top or y0 > bottom:
            continue
        if centres is None:
            centres = [((a + c) / 2, (b + d) / 2) for a, b, c, d in rects]
        for x, y in centres:
            if x0 <= x <= x1 and y0 <= y <= y1:
                return link
    return None
