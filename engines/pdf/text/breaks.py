"""Word breaks a PDF shows as a gap between glyphs, not as a space.

MuPDF adds a space (marked `synthetic`) where the pen moves on by more than
`GAP_EM` of the font size between two Latin glyphs. Two kinds of break in
LibreOffice's PDFs escape it, and the words on either side were read as one:

- a change of writing direction: a table row "2 | القاهرة | London" holds no
  space glyph, each cell is placed on its own; MuPDF measures the jump from the
  Arabic run's last letter (its left end) to "L" and adds nothing, so the line
  read "2القاهرةLondon";
- Thai (and CJK) glyphs, between which MuPDF adds no space however far apart
  they lie: LibreOffice draws Thai words in Noto Sans Thai and the space
  between them in DejaVu Sans, which MuPDF files on a line of its own, so
  "สวัสดี ครับ" read "สวัสดีครับ".

pdftotext breaks words on the gap itself. Here a line's characters are taken
in MuPDF's (logical) order and cut, wherever two glyphs side by side have no
space between them and lie apart, into runs; two runs are apart (and a break
goes between them) when the clear gap between their extents on the line
exceeds `GAP_EM` of the font size. Comparing runs, not neighbouring glyphs,
keeps a right-to-left word glued to the Latin letters it touches: its first
letter is far from the last Latin one, but the word as a whole is not.

A break is a space placed on the gap. A run of them between single glyphs
with alike gaps is letter spacing, not words, and is left out, by the rule
`spacing` applies to MuPDF's own spaces (which joins letter-spaced runs of
those); the breaks themselves are not marked synthetic, so that rule never
takes the spaces MuPDF made on either side of one for a run ("a − a = 0").
"""

from __future__ import annotations

import statistics
from bisect import bisect_right
from dataclasses import replace
from itertools import accumulate
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from engines.pdf.text.chars import RawChars
from engines.pdf.text.spacing import KEEP_RATIO, MAX_GAP_EM, MIN_RUN

# MuPDF's own threshold (SPACE_DIST in its stext device), so that a break is
# added only where MuPDF would have added one had it measured the gap.
GAP_EM = 0.15
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
# Lines further than this from the page's axes are left as MuPDF gives them:
# the boxes of slanted glyphs overlap and their gaps mean little.
_AXIS_COS = 0.99


def insert_breaks(chars: RawChars) -> RawChars:
    """The page's characters with a space in each gap that is a word
    break (`word_breaks`); the same characters when there is none."""
    breaks = word_breaks(chars)
    if not breaks:
        return chars
    texts, synthetic = chars.texts, chars.synthetic
    positions = [position for position, _ in breaks]
    new_texts: list[str] = []
    new_synthetic: list[bool] = []
    done = 0
    for position in positions:
        new_texts += texts[done:position]
        new_texts.append(" ")
        new_synthetic += synthetic[done:position]
        new_synthetic.append(False)
        done = position
    new_texts += texts[done:]
    new_synthetic += synthetic[done:]
    new_boxes = np.insert(chars.boxes, positions, [box for _, box in breaks], axis=0)
    # A break before a span's first character ends the span before it (breaks
    # are never at a line's start).
    shifts = np.searchsorted(positions, chars.span_offsets, side="right").tolist()
    new_offsets = [
        offset + shift for offset, shift in zip(chars.span_offsets, shifts, strict=True)
    ]
    return replace(
        chars,
        texts=new_texts,
        synthetic=new_synthetic,
        boxes=new_boxes,
        span_offsets=new_offsets,
    )


def word_breaks(chars: RawChars) -> list[tuple[int, Box]]:
    """(index, box) of each break to insert before character `index`, its box
    the gap it stands for (MuPDF's page space). The page's glyph pairs are
    measured at once by numpy; Python visits only the pairs that lie apart."""
    texts, boxes, raw_lines = chars.texts, chars.boxes, chars.raw_lines
    line_spans, span_offsets, span_fonts = (
        chars.line_spans,
        chars.span_offsets,
        chars.span_fonts,
    )
    if len(texts) < 2:
        return []
    smallest = GAP_EM * min(map(itemgetter(1), span_fonts))
    # The clear space between each glyph and the one before it, either side.
    x0, y0, x1, y1 = boxes.T
    with np.errstate(invalid="ignore"):  # NaN boxes (hidden glyphs) never part
        across = np.maximum(x0[1:] - x1[:-1], x0[:-1] - x1[1:])
        down = np.maximum(y0[1:] - y1[:-1], y0[:-1] - y1[1:])
        apart = (across > smallest) | (down > smallest)
    line_spans_at = list(accumulate(map(len, line_spans), initial=0))
    line_starts = [span_offsets[i] for i in line_spans_at]
    # Never between the last glyph of a line and the first of the next.
    firsts = np.asarray(line_starts[1:-1], dtype=np.intp)
    apart[firsts[firsts > 0] - 1] = False
    wide = (np.flatnonzero(apart) + 1).tolist()
    if not wide:
        return []
    by_line: dict[int, list[int]] = {}
    for at in wide:
        line = bisect_right(line_starts, at) - 1
        if texts[at].isspace() or texts[at - 1].isspace():
            continue
        cos, sin = _direction(raw_lines[line])
        if max(abs(cos), abs(sin)) < _AXIS_COS:
            continue
        gap = down[at - 1] if abs(sin) > abs(cos) else across[at - 1]
        size = span_fonts[bisect_right(span_offsets, at) - 1][1]
        if gap > GAP_EM * size:
            by_line.setdefault(line, []).append(at)
    breaks: list[tuple[int, Box]] = []
    for line, candidates in by_line.items():
        start, end = line_starts[line], line_starts[line + 1]
        cos, sin = _direction(raw_lines[line])
        vertical = abs(sin) > abs(cos)
        axis = 1 if vertical else 0
        spans = range(line_spans_at[line], line_spans_at[line + 1])
        sizes = np.repeat(
            [span_fonts[span][1] for span in spans],
            [span_offsets[span + 1] - span_offsets[span] for span in spans],
        )
        found = _line_breaks(
            [at - start for at in candidates],
            boxes[start:end, axis],
            boxes[start:end, axis + 2],
            np.fromiter(map(str.isspace, texts[start:end]), bool, end - start),
            sizes,
        )
        found = _without_letter_spacing(found, float(sizes[0]))
        for index, (gap_low, gap_high) in found:
            at = start + index
            breaks.append((at, _gap_box(boxes, at, vertical, gap_low, gap_high)))
    return breaks


def _direction(raw_line: dict[str, Any]) -> tuple[float, float]:
    cos, sin = raw_line["dir"]
    return float(cos), float(sin)


def _line_breaks(
    candidates: list[int],
    low: npt.NDArray[np.float64],
    high: npt.NDArray[np.float64],
    spaces: npt.NDArray[np.bool_],
    sizes: npt.NDArray[np.float64],
) -> list[tuple[int, tuple[float, float]]]:
    """(index, gap) of the breaks of one line, indices counted from its first
    character, `candidates` the glyphs apart from the one before them."""
    # Runs end at spaces and at the candidates.
    stops = sorted(set(candidates) | set(np.flatnonzero(spaces).tolist()))
    stops.append(len(low))
    found: list[tuple[int, tuple[float, float]]] = []
    previous: tuple[float, float] | None = None
    for number, stop in enumerate(stops[:-1]):
        if spaces[stop]:
            previous = None  # a space the PDF holds already breaks here
            continue
        if previous is None:
            # After a space (or at the line's start): the run starts afresh.
            start = stops[number - 1] + 1 if number else 0
            previous = _extent(low, high, start, stop)
        following = _extent(low, high, stop, stops[number + 1])
        gap = _gap(previous, following)
        if gap is not None and gap[1] - gap[0] > GAP_EM * sizes[stop]:
            found.append((stop, gap))
            previous = following
        else:
            previous = (min(previous[0], following[0]), max(previous[1], following[1]))
    return found


def _without_letter_spacing(
    found: list[tuple[int, tuple[float, float]]], size: float
) -> list[tuple[int, tuple[float, float]]]:
    """`found` less its runs of alike gaps between single glyphs: text drawn
    glyph by glyph at a fixed pitch (MuPDF adds no space between CJK glyphs,
    however far apart), judged as `spacing` judges MuPDF's own spaces."""
    dropped: set[int] = set()
    run: list[tuple[int, float]] = []
    for index, (low, high) in [*found, (-2, (0.0, 0.0))]:
        if run and index != run[-1][0] + 1:
            if len(run) >= MIN_RUN:
                median = statistics.median(gap for _, gap in run)
                closed = [at for at, gap in run if gap <= KEEP_RATIO * median]
                if median <= MAX_GAP_EM * size and len(closed) >= MIN_RUN:
                    dropped.update(closed)
            run = []
        run.append((index, high - low))
    return [item for item in found if item[0] not in dropped]


def _extent(
    low: npt.NDArray[np.float64], high: npt.NDArray[np.float64], start: int, stop: int
) -> tuple[float, float]:
    """Where the glyphs [start, stop) lie on the line; NaN when one of them has
    no box (then no gap is found next to them)."""
    return (float(low[start:stop].min()), float(high[start:stop].max()))


def _gap(
    before: tuple[float, float], after: tuple[float, float]
) -> tuple[float, float] | None:
    """The clear stretch of line between two extents, whichever side `after`
    lies on; None when they overlap or touch."""
    if after[0] > before[1]:
        return (before[1], after[0])
    if before[0] > after[1]:
        return (after[1], before[0])
    return None


def _gap_box(
    boxes: npt.NDArray[np.float64], at: int, vertical: bool, low: float, high: float
) -> Box:
    """The break's box: the gap along the line, the two glyphs' extent across."""
    across = 0 if vertical else 1
    first = float(min(boxes[at - 1, across], boxes[at, across]))
    last = float(max(boxes[at - 1, across + 2], boxes[at, across + 2]))
    if vertical:
        return (first, low, last, high)
    return (low, first, high, last)
