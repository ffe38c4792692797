"""True redaction of page areas: text, images, paths and annotations under them.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from engines.errors import EngineError
from engines.pdf import collector, geometry
from engines.pdf.fonts import glyph_text_page, lying_fonts
from engines.pdf.redact import evidence
from engines.pdf.redact.annotations import delete_annotations
from engines.pdf.redact.glyphmap import (
    TEXT_ONLY,
    PageText,
    Rect4,
    removed_text,
    text_rects,
)
from engines.pdf.redact.mupdf_pass import apply_mupdf, fill, pending_redactions_hidden
from engines.pdf.redact.runs import Kept
from engines.pdf.redact.type3 import Type3Run, glyph_marks, inked_under, type3_runs
from engines.pdf.redact.words import Removed, merged
from engines.pdf.types import Box, Rgb

# PyMuPDF's bindings of MuPDF's C API (redactions are applied through them).
_mupdf = pymupdf.mupdf
_BLACK = Rgb(0, 0, 0)


@dataclass(frozen=True, slots=True)
class PageRedaction:
    """What `redact_page` removed: the runs of glyphs (page order, no repeats)
    and the areas MuPDF removed text under (PyMuPDF page space), which a check
    of the written page reads again."""

    removed: list[Removed]
    text_areas: list[Rect4]
    areas: list[Rect4]  # as the client drew them
    # What each area removed, in the order of the boxes given (`evidence`).
    counts: tuple[evidence.AreaCount, ...] = ()


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
    # The collector is held over the whole page, not only its text analysis:
    # resumed while the page's extracted text was still alive, its next
    # collection walked every one of those objects (a sixth of the engine's time).
    with collector.paused():
        return _redact_page(page, boxes)


def _redact_page(
    page: pymupdf.Page, boxes: Sequence[tuple[Box, Rgb | None]]
) -> PageRedaction:
    rects = _page_areas(page, [box for box, _ in boxes])
    floats = [(rect.x0, rect.y0, rect.x1, rect.y1) for rect in rects]
    text_rects, texts = _text_plan(page, floats)
    snapshot = evidence.before(
        page, floats, texts[0].raw_lines_meeting(floats), texts[0].images
    )
    inked = inked_under(type3_runs(page), floats)
    if inked:
        text_rects = [*text_rects, *glyph_marks(inked)]
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
    # What went is read off the page, not foreseen: MuPDF's filter judges a
    # glyph by its own box, which for vertical text is not the extracted one.
    removed = _lost(page, texts, text_rects)
    counts = evidence.after(page, snapshot)
    if inked:
        removed = merged([*removed, *_runs_of(inked)])
    fill(page, [(box, colour or _BLACK) for box, colour in boxes])
    return PageRedaction(removed, text_rects, floats, tuple(counts))


# Lines this close (points) to a text area are read again after MuPDF's pass.
_REACH = 12.0


def _lost(
    page: pymupdf.Page, texts: Sequence[PageText], text_rects: Sequence[Rect4]
) -> list[Removed]:
    """The runs of glyphs MuPDF removed.

    Horizontal text is judged as MuPDF's filter judges it, by its extracted
    glyph boxes. For vertical text MuPDF's filter and its extraction place
    the glyphs differently, so what went is read off the page as it is now
    (only then: it costs a second extraction).
    """
    if not text_rects:
        return []
    kept: Kept | None = None
    reach = [
        (x0 - _REACH, y0 - _REACH, x1 + _REACH, y1 + _REACH)
        for x0, y0, x1, y1 in text_rects
    ]
    vertical = [
        box for text in texts for box in text.boxes_meeting(reach, vertical=True)
    ]
    if vertical:
        clip = pymupdf.Rect(vertical[0])
        for box in vertical[1:]:
            clip |= pymupdf.Rect(box)
        clip += (-2, -2, 2, 2)
        blocks = page.get_text("rawdict", flags=TEXT_ONLY, clip=clip)["blocks"]
        kept = Kept(
            [
                (round(char["origin"][0] * 100), round(char["origin"][1] * 100))
                for block in blocks
                for line in block.get("lines", ())
                for span in line["spans"]
                for char in span["chars"]
            ]
        )
    return merged(
        [run for text in texts for run in removed_text(text, text_rects, reach, kept)]
    )


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
) -> tuple[list[Rect4], list[PageText]]:
    """The text areas (`text_rects`) and the page's text before redaction,
    read once more where a font's /ToUnicode says other letters than its
    glyphs show (`fonts`): the glyphs' own reading is recorded as removed
    too, as it is the word the page showed."""
    text = PageText(page, with_images=True)
    rects = text_rects(text, areas)
    texts = [text]
    lying = lying_fonts(page, forms=True)
    if lying:
        with glyph_text_page(page, lying) as shown:
            if shown is not None:
                texts.append(PageText(shown))
    return rects, texts


def _page_areas(page: pymupdf.Page, boxes: Sequence[Box]) -> list[pymupdf.Rect]:
    for box in boxes:
        if not (box.w > 0 and box.h > 0):
            raise EngineError(
                f"A redaction area must have a positive width and height (got {box})."
            )
    return geometry.display_to_page_rects(page, boxes)
