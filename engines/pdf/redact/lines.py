"""A page's text lines as MuPDF's text page holds them: every line's box and
direction from one reading of its spans, a line's characters (rawdict) read
only when asked for.

Reading every character of a page makes a dict and two tuples per character,
on a page of text twice what MuPDF's own pass over the page costs, while a
redaction looks at the few lines its areas meet. MuPDF's extraction keeps
the characters whose box overlaps the text page's media box; pointed at one
line's box (grown a little) for one extraction, it gives that line whole,
since PyMuPDF makes a line's box the union of its characters' boxes. The line
read so is taken only when it is the same line, by its box, direction and
number of characters; otherwise, and once many lines were wanted, the whole
page is read at once. Rectangles are PyMuPDF page space.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from engines.errors import EngineError

# (x0, y0, x1, y1). Glyph boxes stay plain floats: a page has thousands of
# glyphs, and a pymupdf.Rect costs microseconds to make.
Rect4 = tuple[float, float, float, float]

# Past this many lines read one by one, the rest of the page is read at once.
_ONE_BY_ONE = 16
# A line is read through its box grown by this much (points): a character of
# no width on the box's edge overlaps it then.
_GROW = 0.5


def rect4(bbox: Sequence[float]) -> Rect4:
    """An extracted bbox as plain floats."""
    x0, y0, x1, y1 = bbox
    return (x0, y0, x1, y1)


def clipped_lines(textpage: pymupdf.TextPage, clip: Rect4) -> list[dict[str, Any]]:
    """The rawdict lines of `textpage` that meet `clip`, with only their
    characters whose box overlaps it: the test MuPDF's text page applies to
    its own media box, here pointed at `clip` for the one extraction (the
    text page is read once however many clips are taken from it)."""
    internal = textpage.this.m_internal
    # Both rectangles are held by name: the field is copied from the memory
    # `internal()` points into, which a temporary would already have freed.
    whole = pymupdf.mupdf.FzRect(internal.mediabox)
    wanted = pymupdf.mupdf.FzRect(*clip)
    internal.mediabox = wanted.internal()
    try:
        blocks = textpage.extractRAWDICT()["blocks"]
    finally:
        internal.mediabox = whole.internal()
    return [line for block in blocks for line in block.get("lines", ())]


class TextLines:
    """The lines of one text page, in page order."""

    def __init__(self, textpage: pymupdf.TextPage) -> None:
        self._textpage = textpage
        blocks = textpage.extractDICT()["blocks"]
        # Each line's box and its span-level reading (no characters).
        self.lines: list[tuple[Rect4, dict[str, Any]]] = [
            (rect4(line["bbox"]), line)
            for block in blocks
            for line in block.get("lines", ())
        ]
        self._raw: dict[int, dict[str, Any]] = {}
        self._reads = 0

    def raw(self, number: int) -> dict[str, Any]:
        """Line `number` (0-based, page order) as rawdict gives it."""
        line = self._raw.get(number)
        if line is None:
            if self._reads < _ONE_BY_ONE:
                self._reads += 1
                self._read_line(number)
            if number not in self._raw:
                self._read_all()
            line = self._raw[number]
        return line

    def _read_line(self, number: int) -> None:
        """Read line `number` and the lines of the very same box with it, if
        the reading is surely theirs; else read nothing."""
        bbox, line = self.lines[number]
        same = [
            n
            for n, (box, other) in enumerate(self.lines)
            if box == bbox and other["dir"] == line["dir"]
        ]
        x0, y0, x1, y1 = bbox
        clip = (x0 - _GROW, y0 - _GROW, x1 + _GROW, y1 + _GROW)
        found = [
            raw
            for raw in clipped_lines(self._textpage, clip)
            if rect4(raw["bbox"]) == bbox and raw["dir"] == line["dir"]
        ]
        if len(found) != len(same) or any(
            _characters(raw) != _length(self.lines[n][1])
            for raw, n in zip(found, same, strict=True)
        ):
            return
        for raw, n in zip(found, same, strict=True):
            self._raw[n] = raw

    def _read_all(self) -> None:
        blocks = self._textpage.extractRAWDICT()["blocks"]
        raw = [line for block in blocks for line in block.get("lines", ())]
        if len(raw) != len(self.lines) or any(
            rect4(line["bbox"]) != box
            for line, (box, _) in zip(raw, self.lines, strict=False)
        ):
            # One text page read twice the same way: never seen. The redaction
            # is refused rather than planned on text it cannot place.
            raise EngineError("The page's text could not be read consistently.")
        self._raw = dict(enumerate(raw))


def _characters(raw: dict[str, Any]) -> int:
    return sum(len(span["chars"]) for span in raw["spans"])


def _length(line: dict[str, Any]) -> int:
    """How many characters a line read by spans holds (one per character)."""
    return sum(len(span["text"]) for span in line["spans"])
