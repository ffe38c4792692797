"""Which pages need reading: the `mode` of `OcrOptions` applied to one page.

Positions are PyMuPDF's unrotated page space inside this module (coverage and
overlap do not depend on the rotation) and displayed space (points) where a
function says so. Pages count from 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pymupdf

from engines.ocr.types import OcrMode
from engines.pdf import geometry
from engines.pdf.types import Box

# "Most of the page": the share of the page that images must cover for a page
# without text to count as a scan. A photographed ID card on an A4 page covers
# about a tenth; a phone photo of a contract or a fax covers all of it.
MIN_IMAGE_COVER = 0.5
# Coverage is counted on a grid this fine (per side): exact enough for "most",
# and overlapping images (a logo on a scan) are not counted twice.
_GRID = 64


@dataclass(frozen=True, slots=True)
class PageNeed:
    """Whether a page is read, and why (for the report and the logs)."""

    ocr: bool
    reason: str
    has_text: bool


def page_need(page: pymupdf.Page, mode: OcrMode) -> PageNeed:
    """Whether `page` is read under `mode`.

    "never": no page. "auto": a page with no text of its own (annotation and
    form field text do not count: a note stuck on a scan is no text layer) whose
    images cover at least MIN_IMAGE_COVER of it. "always": every page; the words
    found where the page already has text are dropped later (`existing_text`),
    so a page's own text is kept and never doubled.
    """
    has_text = bool(_content_words(page))
    if mode == "never":
        return PageNeed(False, "OCR is off", has_text)
    if mode == "always":
        return PageNeed(True, "every page is read", has_text)
    if has_text:
        return PageNeed(False, "the page has text", has_text)
    cover = image_cover(page)
    if cover < MIN_IMAGE_COVER:
        return PageNeed(False, f"images cover {cover:.0%} of the page", has_text)
    return PageNeed(True, f"a scan: images cover {cover:.0%} of the page", has_text)


def image_cover(page: pymupdf.Page) -> float:
    """The share (0 to 1) of the page that its images cover, however drawn
    (directly, inline, inside forms), overlaps counted once."""
    width, height = page.cropbox.width, page.cropbox.height
    if width <= 0 or height <= 0:
        return 0.0
    grid = np.zeros((_GRID, _GRID), dtype=bool)
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        left, right = _cells(x0, x1, width)
        top, bottom = _cells(y0, y1, height)
        grid[top:bottom, left:right] = True
    return float(grid.mean())


def _cells(low: float, high: float, size: float) -> tuple[int, int]:
    """The grid cells whose centres lie between `low` and `high` (of `size`)."""
    first = int(np.clip(np.ceil(low / size * _GRID - 0.5), 0, _GRID))
    last = int(np.clip(np.floor(high / size * _GRID - 0.5) + 1, 0, _GRID))
    return first, max(first, last)


def existing_text(page: pymupdf.Page) -> list[Box]:
    """Boxes (displayed space, points) of the words the page's content holds."""
    transform = geometry.display_transformer(page)
    return [
        geometry.rect_to_box(pymupdf.Rect(transform(word[:4])))
        for word in _content_words(page)
    ]


def overlaps_text(box: Box, text: Sequence[Box]) -> bool:
    """Whether the centre of `box` lies in one of the `text` boxes."""
    x, y = box.x + box.w / 2, box.y + box.h / 2
    return any(t.x <= x <= t.x + t.w and t.y <= y <= t.y + t.h for t in text)


def _content_words(page: pymupdf.Page) -> list[tuple[float, ...]]:
    """Words of the page's content: annotation appearances and form fields,
    which MuPDF's extraction includes, are left out by their rectangles."""
    covers = [annot.rect for annot in page.annots()]
    covers += [widget.rect for widget in page.widgets()]
    words = page.get_text("words", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    return [
        word
        for word in words
        if word[4].strip()
        and not any(
            cover.contains(
                pymupdf.Point((word[0] + word[2]) / 2, (word[1] + word[3]) / 2)
            )
            for cover in covers
        )
    ]
