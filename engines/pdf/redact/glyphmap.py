"""Which glyphs of a page an area takes (the edge rule) and which runs of text
that removes: the page's text read once into plain tuples, its lines found by
the areas they meet, their glyphs judged as MuPDF's redaction filter judges
them. Pages count from 0; rectangles are PyMuPDF page space.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import pymupdf

from engines.pdf.glyphs import capped_box, is_tall
from engines.pdf.redact.lines import Rect4, TextLines, rect4
from engines.pdf.redact.runs import Kept, Piece, joined
from engines.pdf.redact.words import Removed

# A line that enters the area by less than this share of its height only touches
# the edge (decisions §6) and must survive.
EDGE_FRACTION = 0.25
# MuPDF's text filter tests each glyph box shrunk by a tenth of its width and
# height on every side and removes the glyph when that box meets the area at all
# (pdf_redact_text_filter, MuPDF 1.28); the narrowing below reasons with that box.
_MUPDF_SHRINK = 0.1
# Keeps a narrowed edge strictly clear of a surviving glyph's box.
_CLEARANCE = 0.01

# rawdict's flags without its image blocks: they carry each image's bytes, and
# on a scanned page with a text layer cost 20 to 300 times the text itself. (An
# image drawn between two glyphs no longer splits their line in two.)
TEXT_ONLY = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES


class Glyph(NamedTuple):
    # A named tuple, not a frozen dataclass: made in less than half the time,
    # and the lines near the areas hold hundreds of glyphs per page.
    text: str
    full: Rect4  # PyMuPDF page space (unrotated), ascender to descender
    rect: Rect4  # `full` shrunk as MuPDF's filter shrinks it
    vertical: bool  # the line runs along the page's y axis (rotated text)
    word: tuple[int, int]  # (line, word on that line): unique, in page order
    origin: tuple[int, int]  # hundredths of a point: which glyph it is


class PageText:
    """The page's text lines from one extraction; their characters read and
    their glyphs made on demand (`lines`).

    Only the lines near an area are looked at glyph by glyph: PyMuPDF makes a
    line's box the union of its glyph boxes, so a line whose box meets no area
    has no glyph that meets one (and a word never spans two lines).
    """

    def __init__(self, page: pymupdf.Page, *, with_images: bool = False) -> None:
        # With `with_images`, `images` is the page's image list
        # (`Page.get_image_info`) when it could be read on the way, else None.
        self.images: list[dict[str, Any]] | None = None
        textpage = _image_free_textpage(page) if with_images else None
        if textpage is None:
            textpage = page.get_textpage(flags=TEXT_ONLY)
        else:
            self.images = []
        self._text = TextLines(textpage)
        self._lines = self._text.lines
        self._glyphs: dict[int, list[Glyph]] = {}

    def raw_lines_meeting(self, areas: Sequence[Rect4]) -> list[dict[str, Any]]:
        """The extracted lines (rawdict) whose box meets one of `areas`, in
        page order."""
        return [self._text.raw(number) for number, _ in self._near(areas)]

    def boxes_meeting(
        self, areas: Sequence[Rect4], *, vertical: bool = False
    ) -> list[Rect4]:
        """The boxes of the lines (only the vertical ones, with `vertical`)
        that meet one of `areas`."""
        return [
            self._lines[number][0]
            for number, _ in self._near(areas)
            if not vertical or _is_vertical(self._lines[number][1])
        ]

    def lines_meeting(
        self, areas: Sequence[Rect4]
    ) -> Iterator[tuple[list[Glyph], list[int]]]:
        """Each line whose box meets one of `areas`, in page order: its glyphs and
        the indexes of the areas its box meets (the only ones its glyphs can
        meet)."""
        for number, near in self._near(areas):
            yield self._line(number), near

    def lines_hit(
        self, areas: Sequence[Rect4], reach: Sequence[Rect4]
    ) -> Iterator[tuple[list[Glyph], list[Rect4]]]:
        """Each line a glyph of which `areas` can take, in page order: its
        glyphs and the areas its box meets (none for a vertical line yielded
        because its box meets one of `reach`)."""
        near = dict(self._near(areas))
        reached = {
            number
            for number, _ in self._near(reach)
            if number not in near and _is_vertical(self._lines[number][1])
        }
        for number in sorted(near.keys() | reached):
            yield self._line(number), [areas[n] for n in near.get(number, ())]

    def _near(self, areas: Sequence[Rect4]) -> list[tuple[int, list[int]]]:
        """Each line whose box meets one of `areas` (`_meets`), in page order,
        with the indexes of the areas it meets. Written out as comparisons: it
        runs for every line and area of the page."""
        valid = [
            (n, area) for n, area in enumerate(areas)
            if area[0] <= area[2] and area[1] <= area[3]
        ]  # fmt: skip
        found = []
        for number, ((x0, y0, x1, y1), _) in enumerate(self._lines):
            if not (x0 <= x1 and y0 <= y1):
                continue
            near = [
                n for n, (ax0, ay0, ax1, ay1) in valid
                if x0 <= ax1 and ax0 <= x1 and y0 <= ay1 and ay0 <= y1
            ]  # fmt: skip
            if near:
                found.append((number, near))
        return found

    def _line(self, number: int) -> list[Glyph]:
        glyphs = self._glyphs.get(number)
        if glyphs is None:
            raw = self._text.raw(number)
            glyphs = self._glyphs[number] = _line_glyphs(raw, number)
        return glyphs


def _is_vertical(line: dict[str, Any]) -> bool:
    """The line runs along the page's y axis (rotated text)."""
    cos, sin = line["dir"]
    return bool(abs(sin) > abs(cos))


def _image_free_textpage(page: pymupdf.Page) -> pymupdf.TextPage | None:
    """The page's text page with images recorded, when the page draws none:
    it is then the text-only page too (the same rawdict), and the image list
    (empty) comes without the text page of its own `get_image_info` makes.
    None for a page that lists images, or draws one inline or in a form."""
    if page.get_images():
        return None
    textpage = page.get_textpage(flags=TEXT_ONLY | pymupdf.TEXT_PRESERVE_IMAGES)
    return None if textpage.extractIMGINFO() else textpage


def _line_glyphs(line: dict[str, Any], number: int) -> list[Glyph]:
    """The glyphs of one extracted line with the box MuPDF's redaction filter
    tests, each numbered with its word (glyphs between white space)."""
    cos, sin = line["dir"]
    vertical = abs(sin) > abs(cos)
    glyphs: list[Glyph] = []
    word = (number, 0)
    in_word = False
    for span in line["spans"]:
        # A lying font box (Type 3) would make the glyph touch every area of
        # its column by a sliver: it is judged on its own line instead.
        tall = not vertical and is_tall(span["bbox"], span["size"], True)
        for char in span["chars"]:
            text = char["c"]
            if text.isspace():
                if in_word:
                    word = (number, word[1] + 1)
                    in_word = False
                continue
            in_word = True
            full = (
                capped_box(char["bbox"], char["origin"], span["size"])
                if tall
                else rect4(char["bbox"])
            )
            x, y = char["origin"]
            origin = (round(x * 100), round(y * 100))
            glyphs.append(Glyph(text, full, _shrunk(full), vertical, word, origin))
    return glyphs


def _shrunk(rect: Rect4) -> Rect4:
    x0, y0, x1, y1 = rect
    dx, dy = max(0, x1 - x0) * _MUPDF_SHRINK, max(0, y1 - y0) * _MUPDF_SHRINK
    return (x0 + dx, y0 + dy, x1 - dx, y1 - dy)


def _meets(glyph: Rect4, area: Rect4) -> bool:
    """MuPDF's test: the intersection is a valid (possibly empty) rectangle
    (max(x0s) <= min(x1s) and the same in y, written out as comparisons)."""
    gx0, gy0, gx1, gy1 = glyph
    ax0, ay0, ax1, ay1 = area
    return (
        gx0 <= gx1
        and gx0 <= ax1
        and ax0 <= gx1
        and ax0 <= ax1
        and gy0 <= gy1
        and gy0 <= ay1
        and ay0 <= gy1
        and ay0 <= ay1
    )


def _meeting(glyphs: Sequence[Glyph], area: Rect4) -> list[bool]:
    """`_meets(glyph.rect, area)` for each glyph, written out with comparisons
    only (the same test on numbers): it runs for every glyph near an area."""
    ax0, ay0, ax1, ay1 = area
    if not (ax0 <= ax1 and ay0 <= ay1):
        return [False] * len(glyphs)
    return [
        x0 <= x1 and x0 <= ax1 and ax0 <= x1 and y0 <= y1 and y0 <= ay1 and ay0 <= y1
        for x0, y0, x1, y1 in [glyph.rect for glyph in glyphs]
    ]


def _depth(glyph: Glyph, area: Rect4) -> float:
    """How far the glyph's full box enters the area across its line, 0 to 1."""
    x0, y0, x1, y1 = glyph.full
    if glyph.vertical:
        low, high, a0, a1 = x0, x1, area[0], area[2]
    else:
        low, high, a0, a1 = y0, y1, area[1], area[3]
    size = high - low
    if size <= 0:
        return 1.0
    return max(0.0, min(high, a1) - max(low, a0)) / size


def text_rects(text: PageText, areas: Sequence[Rect4]) -> list[Rect4]:
    """The areas narrowed so that glyphs merely touching an edge are not removed.

    Each edge moves inwards past every glyph that enters the area by less than
    `EDGE_FRACTION` of its height. Should that release a glyph that enters deeply
    (glyph boxes of very different sizes overlapping), a small area at that glyph's
    centre is added: removing too much is the safe side.
    """
    met_by: list[list[tuple[Glyph, float]]] = [[] for _ in areas]
    for glyphs, near in text.lines_meeting(areas):
        for n in near:
            area = areas[n]
            met_by[n] += [
                (glyph, _depth(glyph, area))
                for glyph, meets in zip(glyphs, _meeting(glyphs, area), strict=True)
                if meets
            ]
    result: list[Rect4] = []
    for area, met in zip(areas, met_by, strict=True):
        keep = [glyph for glyph, depth in met if depth < EDGE_FRACTION]
        remove = [glyph for glyph, depth in met if depth >= EDGE_FRACTION]
        narrowed = _narrow(area, keep)
        usable = narrowed[0] < narrowed[2] and narrowed[1] < narrowed[3]
        if usable:
            result.append(narrowed)
        for glyph in remove:
            if not usable or not _meets(glyph.rect, narrowed):
                x0, y0, x1, y1 = glyph.rect
                x, y = x0 + (x1 - x0) * 0.5, y0 + (y1 - y0) * 0.5
                result.append((x - 0.01, y - 0.01, x + 0.01, y + 0.01))
    return result


def _narrow(area: Rect4, keep: Sequence[Glyph]) -> Rect4:
    x0, y0, x1, y1 = area
    centre_x = (area[0] + area[2]) / 2
    centre_y = (area[1] + area[3]) / 2
    for glyph in keep:
        bx0, by0, bx1, by1 = glyph.rect
        if glyph.vertical:
            if (bx0 + bx1) / 2 < centre_x:
                x0 = max(x0, bx1 + _CLEARANCE)
            else:
                x1 = min(x1, bx0 - _CLEARANCE)
        elif (by0 + by1) / 2 < centre_y:
            y0 = max(y0, by1 + _CLEARANCE)
        else:
            y1 = min(y1, by0 - _CLEARANCE)
    return (x0, y0, x1, y1)


def removed_text(
    text: PageText,
    areas: Sequence[Rect4],
    reach: Sequence[Rect4],
    kept: Kept | None,
) -> list[Removed]:
    """The runs of glyphs that `areas` (the text areas) remove, token by token.

    A run is what MuPDF's filter takes out of one white-space token: `Acme` of
    `Acme's`, not the token. Lines are looked up by these areas, not the
    client's: a centre mark of `text_rects` may reach past its area into a
    neighbouring line. A glyph's box lies in its line's box, so only the areas
    meeting the line's box are tested; a vertical line within `reach` is
    judged by `kept` (what is left on the page) when it is given.
    """
    tokens: dict[tuple[int, int], list[tuple[str, bool]]] = {}
    last: dict[int, int] = {}  # line → its last token's number
    for glyphs, near in text.lines_hit(areas, reach):
        hits = [False] * len(glyphs)
        for area in near:
            hits = [a or b for a, b in zip(hits, _meeting(glyphs, area), strict=True)]
        for glyph, hit in zip(glyphs, hits, strict=True):
            if glyph.vertical and kept is not None:
                hit = not kept.take(glyph.origin)
            tokens.setdefault(glyph.word, []).append((glyph.text, hit))
        if glyphs:
            last[glyphs[-1].word[0]] = glyphs[-1].word[1]
    pieces: list[Piece] = []
    for (line, word), token in tokens.items():
        if not any(hit for _, hit in token):
            continue
        spelled = "".join(char for char, _ in token)
        offset = 0
        start: int | None = None
        for char, hit in [*token, ("", False)]:
            if hit and start is None:
                start = offset
            elif not hit and start is not None:
                pieces.append(
                    Piece(line, word, spelled, start, offset, last.get(line) == word)
                )
                start = None
            offset += len(char)
    return joined(pieces)
