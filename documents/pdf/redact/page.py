"""True redaction of page areas: text, images, paths and annotations under them.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pymupdf

from documents.pdf import collector, geometry
from documents.pdf.fonts import glyph_text_page, lying_fonts
from documents.pdf.glyphs import capped_box, is_tall
from documents.pdf.redact.annotations import delete_annotations
from documents.pdf.redact.mupdf_pass import apply_mupdf, fill, pending_redactions_hidden
from documents.pdf.redact.type3 import Type3Run, glyph_marks, inked_under, type3_runs
from documents.pdf.redact.words import Removed, merged
from documents.pdf.types import Box, EngineError, Rgb

# PyMuPDF's bindings of MuPDF's C API (redactions are applied through them).
_mupdf = pymupdf.mupdf

# A line that enters the area by less than this share of its height only touches
# the edge (decisions §6) and must survive.
EDGE_FRACTION = 0.25
# MuPDF's text filter tests each glyph box shrunk by a tenth of its width and
# height on every side and removes the glyph when that box meets the area at all
# (pdf_redact_text_filter, MuPDF 1.28); the narrowing below reasons with that box.
_MUPDF_SHRINK = 0.1
# Keeps a narrowed edge strictly clear of a surviving glyph's box.
_CLEARANCE = 0.01
_BLACK = Rgb(0, 0, 0)

# rawdict's flags without its image blocks: they carry each image's bytes, and
# on a scanned page with a text layer cost 20 to 300 times the text itself. (An
# image drawn between two glyphs no longer splits their line in two.)
_TEXT_ONLY = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
# (x0, y0, x1, y1) in PyMuPDF page space. Glyph boxes stay plain floats: a page
# has thousands of glyphs, and a pymupdf.Rect costs microseconds to make.
Rect4 = tuple[float, float, float, float]


class _Glyph(NamedTuple):
    # A named tuple, not a frozen dataclass: made in less than half the time,
    # and the lines near the areas hold hundreds of glyphs per page.
    text: str
    full: Rect4  # PyMuPDF page space (unrotated), ascender to descender
    rect: Rect4  # `full` shrunk as MuPDF's filter shrinks it
    vertical: bool  # the line runs along the page's y axis (rotated text)
    word: tuple[int, int]  # (line, word on that line): unique, in page order


@dataclass(frozen=True, slots=True)
class PageRedaction:
    """What `redact_page` removed: the runs of glyphs (page order, no repeats)
    and the areas MuPDF removed text under (PyMuPDF page space), which a check
    of the written page reads again."""

    removed: list[Removed]
    text_areas: list[Rect4]
    areas: list[Rect4]  # as the client drew them


def redact_page(
    page: pymupdf.Page, boxes: Sequence[tuple[Box, Rgb | None]]
) -> PageRedaction:
    """Truly redact `boxes` (displayed space, points) on `page`; return the words hit.

    Under each area, text is removed from the content stream, image pixels are
    blanked (a copy of the image is made, so another page sharing it keeps its
    pixels), vector paths lying fully inside are removed, and annotations, form
    widgets and links meeting the area are deleted. The area is then filled with its
    colour (black when None).

    Text is removed when it enters the area by at least `EDGE_FRACTION` of its
    height; a line of text that only touches the top or bottom edge by less stays
    whole. Along the line, MuPDF's own rule applies: a glyph goes when its box,
    narrowed by a tenth per side, meets the area.

    Type 3 text is judged by what it draws (`type3`): a run whose ink meets an
    area goes whole. Glyph boxes taller than `glyphs.TALL_GLYPH` font sizes
    (lying font boxes) are judged on their own line.
    Redaction annotations the page already had are left pending, not applied.

    Returns the removed text for `scrub_document`, in page order without repeats:
    each run of removed glyphs within a white-space token, outer punctuation
    trimmed (`Removed`), so that only what went is scrubbed elsewhere.
    """
    if not boxes:
        return PageRedaction([], [], [])
    areas = [(_page_area(page, box), colour or _BLACK) for box, colour in boxes]
    rects = [rect for rect, _ in areas]
    floats = [(rect.x0, rect.y0, rect.x1, rect.y1) for rect in rects]
    with collector.paused():
        text_rects, removed = _text_plan(page, floats)
        inked = inked_under(type3_runs(page), floats)
    if inked:
        text_rects = [*text_rects, *glyph_marks(inked)]
        removed = merged([*removed, *_runs_of(inked)])
    delete_annotations(page, rects)
    with pending_redactions_hidden(page):
        if text_rects == floats:
            # No area was narrowed: one MuPDF pass removes all three.
            apply_mupdf(page, floats, text=True, images_and_paths=True)
        else:
            # Two passes because images and paths go by the area the client
            # drew while text goes by the narrowed areas; MuPDF takes one set
            # per call.
            apply_mupdf(page, floats, text=False, images_and_paths=True)
            apply_mupdf(page, text_rects, text=True, images_and_paths=False)
    fill(page, [(box, colour or _BLACK) for box, colour in boxes])
    return PageRedaction(removed, text_rects, floats)


def _runs_of(runs: Sequence[Type3Run]) -> list[Removed]:
    """The text of whole Type 3 runs, removed for what they draw."""
    found = []
    for run in runs:
        for token in run.text.split():
            removed = Removed.of(token, 0, len(token))
            if removed is not None:
                found.append(removed)
    return found


def _text_plan(
    page: pymupdf.Page, areas: Sequence[Rect4]
) -> tuple[list[Rect4], list[Removed]]:
    """The text areas (`_text_rects`) and the removed words (`_removed_text`).

    Where a font's /ToUnicode says other letters than its glyphs show
    (`fonts`), the glyphs' own reading is recorded as removed too: that is
    the word the page showed. The page's extracted text is freed on return:
    see `collector`.
    """
    text = _PageText(page)
    text_rects = _text_rects(text, areas)
    removed = _removed_text(text, text_rects)
    lying = lying_fonts(page)
    if lying:
        with glyph_text_page(page, lying) as shown:
            if shown is not None:
                removed = merged(
                    [*removed, *_removed_text(_PageText(shown), text_rects)]
                )
    return text_rects, removed


def _page_area(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    if not (box.w > 0 and box.h > 0):
        raise EngineError(
            f"A redaction area must have a positive width and height (got {box})."
        )
    return geometry.display_to_page_rect(page, box)


def _rect4(bbox: Sequence[float]) -> Rect4:
    """An extracted bbox as plain floats."""
    x0, y0, x1, y1 = bbox
    return (x0, y0, x1, y1)


class _PageText:
    """The page's text lines from one extraction; their glyphs made on demand.

    Only the lines near an area are looked at glyph by glyph: PyMuPDF makes a
    line's box the union of its glyph boxes, so a line whose box meets no area
    has no glyph that meets one (and a word never spans two lines).
    """

    def __init__(self, page: pymupdf.Page) -> None:
        blocks = page.get_text("rawdict", flags=_TEXT_ONLY)["blocks"]
        self._lines = [
            (_rect4(line["bbox"]), line)
            for block in blocks
            for line in block.get("lines", ())
        ]
        self._glyphs: dict[int, list[_Glyph]] = {}

    def lines_meeting(
        self, areas: Sequence[Rect4]
    ) -> Iterator[tuple[list[_Glyph], list[Rect4]]]:
        """Each line whose box meets one of `areas`, in page order: its glyphs and
        the areas its box meets (the only ones its glyphs can meet)."""
        for number, (bbox, line) in enumerate(self._lines):
            near = [area for area in areas if _meets(bbox, area)]
            if not near:
                continue
            glyphs = self._glyphs.get(number)
            if glyphs is None:
                glyphs = self._glyphs[number] = _line_glyphs(line, number)
            yield glyphs, near


def _line_glyphs(line: dict[str, Any], number: int) -> list[_Glyph]:
    """The glyphs of one extracted line with the box MuPDF's redaction filter
    tests, each numbered with its word (glyphs between white space)."""
    cos, sin = line["dir"]
    vertical = abs(sin) > abs(cos)
    glyphs: list[_Glyph] = []
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
                else _rect4(char["bbox"])
            )
            glyphs.append(_Glyph(text, full, _shrunk(full), vertical, word))
    return glyphs


def _shrunk(rect: Rect4) -> Rect4:
    x0, y0, x1, y1 = rect
    dx, dy = max(0, x1 - x0) * _MUPDF_SHRINK, max(0, y1 - y0) * _MUPDF_SHRINK
    return (x0 + dx, y0 + dy, x1 - dx, y1 - dy)


def _meets(glyph: Rect4, area: Rect4) -> bool:
    """MuPDF's test: the intersection is a valid (possibly empty) rectangle."""
    return max(glyph[0], area[0]) <= min(glyph[2], area[2]) and max(
        glyph[1], area[1]
    ) <= min(glyph[3], area[3])


def _meeting(glyphs: Sequence[_Glyph], area: Rect4) -> list[bool]:
    """`_meets(glyph.rect, area)` for each glyph, written out with comparisons
    only (the same test on numbers): it runs for every glyph near an area."""
    ax0, ay0, ax1, ay1 = area
    if not (ax0 <= ax1 and ay0 <= ay1):
        return [False] * len(glyphs)
    return [
        x0 <= x1 and x0 <= ax1 and ax0 <= x1 and y0 <= y1 and y0 <= ay1 and ay0 <= y1
        for x0, y0, x1, y1 in [glyph.rect for glyph in glyphs]
    ]


def _depth(glyph: _Glyph, area: Rect4) -> float:
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


def _text_rects(text: _PageText, areas: Sequence[Rect4]) -> list[Rect4]:
    """The areas narrowed so that glyphs merely touching an edge are not removed.

    Each edge moves inwards past every glyph that enters the area by less than
    `EDGE_FRACTION` of its height. Should that release a glyph that enters deeply
    (glyph boxes of very different sizes overlapping), a small area at that glyph's
    centre is added: removing too much is the safe side.
    """
    result: list[Rect4] = []
    for area in areas:
        met = [
            (glyph, _depth(glyph, area))
            for glyphs, _ in text.lines_meeting([area])
            for glyph, meets in zip(glyphs, _meeting(glyphs, area), strict=True)
            if meets
        ]
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


def _narrow(area: Rect4, keep: Sequence[_Glyph]) -> Rect4:
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


def _removed_text(text: _PageText, areas: Sequence[Rect4]) -> list[Removed]:
    """The runs of glyphs that `areas` (the text areas) remove, token by token.

    A run is what MuPDF's filter takes out of one white-space token: `Acme` of
    `Acme's`, not the token. Lines are looked up by these areas, not the
    client's: a centre mark of `_text_rects` may reach past its area into a
    neighbouring line.
    """
    tokens: dict[tuple[int, int], list[tuple[str, bool]]] = {}
    for glyphs, near in text.lines_meeting(areas):
        hits = _meeting(glyphs, near[0])
        for area in near[1:]:
            hits = [a or b for a, b in zip(hits, _meeting(glyphs, area), strict=True)]
        for glyph, hit in zip(glyphs, hits, strict=True):
            tokens.setdefault(glyph.word, []).append((glyph.text, hit))
    removed: list[Removed] = []
    for token in tokens.values():
        if not any(hit for _, hit in token):
            continue
        spelled = "".join(char for char, _ in token)
        offset = 0
        start: int | None = None
        for char, hit in [*token, ("", False)]:
            if hit and start is None:
                start = offset
            elif not hit and start is not None:
                run = Removed.of(spelled, start, offset)
                if run is not None:
                    removed.append(run)
                start = None
            offset += len(char)
    return merged(removed)
