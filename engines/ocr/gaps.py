"""Ink that Tesseract's page layout left unread, and a second look at it.

On dense pages (tables of 7 pt figures, multi-column 8 pt instructions)
Tesseract's layout analysis (page segmentation mode 3) drops whole lines
and blocks: their ink is on the page, no word covers it. Ordinary pages
leave no such ink, so finding it is a cheap test (a few milliseconds of
array work) and the second reading is paid only where it is needed: the
strips of the page holding unread ink are cut out, stacked into one image
and read as one uniform block of text (mode 6, which does not drop lines);
the words found on unread ink are added to those of the first reading.

Pixels are those of the image handed to Tesseract (`raster.Raster`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

# A pixel darker than this is ink (8-bit grey, 0 black).
_INK = 140
# The grid the page is judged on: cells of about 1 mm, a cell is ink when a
# twentieth of it is dark (a stroke crossing it), specks excepted.
_CELL_MM = 1.0
_CELL_INK_SHARE = 0.05
# Words cover the cells of their box grown by this many cells (strokes
# outside a word's box: accents, descenders, underlines).
_GROW = 1
# A second reading is made when unread ink cells are at least this share of
# all ink cells and this many (a stray mark, a logo, a rule are not text).
MIN_UNREAD_SHARE = 0.03
MIN_UNREAD_CELLS = 40
# A page more than half covered in ink is a photograph, a dark scan or noise:
# its layout reading stands.
MAX_INK_COVER = 0.5


@dataclass(frozen=True, slots=True)
class Unread:
    """Unread ink of a page: `cells` (a boolean grid, True where ink is not
    covered by any word), `cell` its cell size in pixels, `share` of the ink
    cells, and `box` (left, top, right, bottom pixels) around it."""

    cells: npt.NDArray[np.bool_]
    cell: int
    share: float
    box: tuple[int, int, int, int]

    def strips(self, width: int, height: int) -> list[tuple[int, int, int, int]]:
        """Bands of the page (left, top, right, bottom pixels) holding the
        unread ink: runs of grid rows with some, each as wide as its ink,
        grown by a cell around (a line's ascenders and descenders)."""
        rows = np.flatnonzero(self.cells.any(axis=1))
        bands: list[list[int]] = []
        for row in rows.tolist():
            if bands and row - bands[-1][-1] <= 2:
                bands[-1].append(row)
            else:
                bands.append([row])
        found = []
        for band in bands:
            columns = np.flatnonzero(self.cells[band[0] : band[-1] + 1].any(axis=0))
            found.append(
                (
                    max(int(columns[0]) - 2, 0) * self.cell,
                    max(band[0] - 1, 0) * self.cell,
                    min((int(columns[-1]) + 3) * self.cell, width),
                    min((band[-1] + 2) * self.cell, height),
                )
            )
        return found

    def holds(self, left: int, top: int, width: int, height: int) -> bool:
        """Whether the centre of a box (pixels) lies on an unread ink cell or
        next to one."""
        row = (top + height // 2) // self.cell
        column = (left + width // 2) // self.cell
        rows, columns = self.cells.shape
        low_r, high_r = max(row - 1, 0), min(row + 2, rows)
        low_c, high_c = max(column - 1, 0), min(column + 2, columns)
        return bool(self.cells[low_r:high_r, low_c:high_c].any())


def grey_pixels(pnm: bytes) -> npt.NDArray[np.uint8]:
    """The pixels of a binary 8-bit PGM ("P5") image, rows by columns."""
    fields: list[bytes] = []
    position = 2  # after "P5"
    while len(fields) < 3:
        while pnm[position : position + 1].isspace():
            position += 1
        if pnm[position : position + 1] == b"#":  # a comment line
            position = pnm.index(b"\n", position) + 1
            continue
        end = position
        while not pnm[end : end + 1].isspace():
            end += 1
        fields.append(pnm[position:end])
        position = end
    width, height = int(fields[0]), int(fields[1])
    data = np.frombuffer(pnm, np.uint8, width * height, position + 1)
    return data.reshape(height, width)


@dataclass(frozen=True, slots=True)
class Stack:
    """Strips of a page stacked into one image: `pnm`, and per strip its box
    on the page and its top in the stack (pixels)."""

    pnm: bytes
    strips: tuple[tuple[int, int, int, int], ...]
    tops: tuple[int, ...]

    def to_page(self, left: int, top: int, height: int) -> tuple[int, int] | None:
        """A box's (left, top) on the page from its (left, top) in the stack;
        None when its middle falls between strips."""
        middle = top + height // 2
        for (x0, y0, _, y1), at in zip(self.strips, self.tops, strict=True):
            if at <= middle < at + (y1 - y0):
                return left + x0, top - at + y0
        return None


def stack(
    pixels: npt.NDArray[np.uint8], strips: Sequence[tuple[int, int, int, int]], gap: int
) -> Stack:
    """`strips` of `pixels` one under the other, `gap` white pixels apart."""
    width = max(right - left for left, _, right, _ in strips)
    height = sum(bottom - top for _, top, _, bottom in strips) + gap * (len(strips) + 1)
    out = np.full((height, width), 255, np.uint8)
    tops = []
    at = gap
    for left, top, right, bottom in strips:
        out[at : at + bottom - top, : right - left] = pixels[top:bottom, left:right]
        tops.append(at)
        at += bottom - top + gap
    return Stack(pgm(out), tuple(strips), tuple(tops))


def pgm(pixels: npt.NDArray[np.uint8]) -> bytes:
    height, width = pixels.shape
    return (
        b"P5\n%d %d\n255\n" % (width, height) + np.ascontiguousarray(pixels).tobytes()
    )


def unread_ink(
    pixels: npt.NDArray[np.uint8],
    dpi: float,
    boxes: Sequence[tuple[int, int, int, int]],
) -> Unread | None:
    """The ink of `pixels` that none of the word `boxes` (left, top, width,
    height, pixels) covers, when there is enough of it to be text; else None."""
    cell = max(4, round(dpi / 25.4 * _CELL_MM))
    rows, columns = pixels.shape[0] // cell, pixels.shape[1] // cell
    if rows == 0 or columns == 0:
        return None
    dark = pixels[: rows * cell, : columns * cell] < _INK
    counts = dark.reshape(rows, cell, columns, cell).sum(axis=(1, 3))
    ink = counts >= _CELL_INK_SHARE * cell * cell
    covered = np.zeros_like(ink)
    for left, top, width, height in boxes:
        r0 = max(top // cell - _GROW, 0)
        r1 = min((top + height) // cell + 1 + _GROW, rows)
        c0 = max(left // cell - _GROW, 0)
        c1 = min((left + width) // cell + 1 + _GROW, columns)
        covered[r0:r1, c0:c1] = True
    unread = ink & ~covered
    # Text runs along a line: a cell with no unread neighbour left or right
    # is a speck, a dot of noise or the end of a rule.
    beside = np.zeros_like(unread)
    beside[:, 1:] |= unread[:, :-1]
    beside[:, :-1] |= unread[:, 1:]
    unread &= beside
    total, found = int(ink.sum()), int(unread.sum())
    if not total or total > MAX_INK_COVER * ink.size:
        return None
    if found < MIN_UNREAD_CELLS or found < MIN_UNREAD_SHARE * total:
        return None
    where_r = np.flatnonzero(unread.any(axis=1))
    where_c = np.flatnonzero(unread.any(axis=0))
    margin = 2 * cell
    box = (
        max(int(where_c[0]) * cell - margin, 0),
        max(int(where_r[0]) * cell - margin, 0),
        min((int(where_c[-1]) + 1) * cell + margin, pixels.shape[1]),
        min((int(where_r[-1]) + 1) * cell + margin, pixels.shape[0]),
    )
    return Unread(unread, cell, found / total, box)
