"""Spaces MuPDF adds between the letters of letter-spaced text.

MuPDF inserts a space (marked `synthetic` in its raw characters) wherever the
gap between two glyphs looks like a word break for their font size. Text drawn
letter by letter at a fixed pitch is then read as one letter per word: the 1 pt
template anchors a word processor writes into a form (`{{s1|radio|14|JA}}`,
invisible on the printed page) come out as `{ { s 1 | r a d i o ...`, which no
client looking for the anchor finds, although the text holds no space at all.

Such a run is recognised by its shape: a space that MuPDF made between every
two single characters, at least `MIN_RUN` times in a row, with gaps that are
alike (none over `KEEP_RATIO` times their median) and small for the font (the
median under `MAX_GAP_EM` of its size). A larger gap inside the run is a word
break and keeps its space; spaces the PDF itself draws are never touched.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import compress

from engines.pdf.text.chars import RawChars

MIN_RUN = 3
MAX_GAP_EM = 0.6
KEEP_RATIO = 1.5


def letter_spacing(chars: RawChars) -> list[int]:
    """Indices (into the page's characters) of the spaces MuPDF made between
    the letters of letter-spaced runs. The work is per made-up space, not per
    character: a page of TeX has one at every word break."""
    texts, synthetic, boxes = chars.texts, chars.synthetic, chars.boxes
    span_offsets, span_fonts = chars.span_offsets, chars.span_fonts
    raw_lines, line_spans = chars.raw_lines, chars.line_spans
    made = list(compress(range(len(synthetic)), synthetic))
    dropped: list[int] = []
    span = 0
    for raw, spans in zip(raw_lines, line_spans, strict=True):
        first_span, span = span, span + len(spans)
        start, end = span_offsets[first_span], span_offsets[span]
        here = made[bisect_left(made, start) : bisect_left(made, end)]
        if len(here) < MIN_RUN:
            continue
        cos, sin = raw["dir"]
        low, high = (0, 2) if abs(cos) >= abs(sin) else (1, 3)
        for run in _runs(texts, synthetic, here, start, end):
            gaps = [float(boxes[i, high] - boxes[i, low]) for i in run]
            median = statistics.median(gaps)
            size = span_fonts[bisect_right(span_offsets, run[0] - 1) - 1][1]
            if median > MAX_GAP_EM * size:
                continue
            closed = [
                i
                for i, gap in zip(run, gaps, strict=True)
                if gap <= KEEP_RATIO * median
            ]
            if len(closed) >= MIN_RUN:
                dropped.extend(closed)
    return dropped


def _runs(
    texts: Sequence[str],
    synthetic: Sequence[bool],
    made: Sequence[int],
    start: int,
    end: int,
) -> list[list[int]]:
    """Runs of the made-up spaces `made` (of the line [start, end)) each between
    two single drawn characters (`a␣b␣c␣d`), at least MIN_RUN long."""
    runs: list[list[int]] = []
    current: list[int] = []
    for index in made:
        if not start < index < end - 1 or not _between_letters(texts, synthetic, index):
            continue
        if current and index != current[-1] + 2:
            if len(current) >= MIN_RUN:
                runs.append(current)
            current = []
        current.append(index)
    if len(current) >= MIN_RUN:
        runs.append(current)
    return runs


def _between_letters(
    texts: Sequence[str], synthetic: Sequence[bool], index: int
) -> bool:
    return (
        texts[index].isspace()
        and not synthetic[index - 1]
        and not texts[index - 1].isspace()
        and not synthetic[index + 1]
        and not texts[index + 1].isspace()
    )
