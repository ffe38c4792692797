"""Reasons on the box: a redaction's overlay text (an exemption code, "b(6)")
drawn inside its black box, as filled outlines so that no reader extracts it
as text, in a colour that stands out from the fill.

Boxes are displayed space (points, top-left origin of the page as displayed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import pymupdf

from engines.errors import EngineError
from engines.pdf import geometry
from engines.pdf.ops.sheets import text_sheet
from engines.pdf.redact.words import Removed, holds, words_pattern
from engines.pdf.types import Box, Rgb

# The text is at most this tall (points), and fills at most this share of the box.
_MAX_SIZE = 12.0
_FILL_SHARE = 0.85
_BLACK = Rgb(0, 0, 0)


class OverlayShowsRemovedWord(EngineError):
    """An overlay would show a word the redaction removed."""

    code = "invalid_operation"


def refuse_removed_words(texts: Sequence[str], removed: Sequence[Removed]) -> None:
    """Raise when an overlay text holds a removed word (it would put it back)."""
    pattern = words_pattern(removed)
    if pattern is None:
        return
    for text in texts:
        if holds(text, pattern):
            raise OverlayShowsRemovedWord(
                "a redaction's overlayText would show a word that the redaction "
                "removes; choose another text"
            )


def draw_overlays(
    page: pymupdf.Page, overlays: Sequence[tuple[Box, str, Rgb | None]]
) -> None:
    """Draw each text centred in its box (`box`, its text, the box's fill)."""
    for box, text, fill in overlays:
        if not text.strip() or box.w <= 1 or box.h <= 1:
            continue
        sheet = pymupdf.open("pdf", _sheet(text, _contrast(fill or _BLACK)))
        with sheet:
            size = sheet[0].rect
            scale = min(
                box.w * _FILL_SHARE / size.width,
                box.h * _FILL_SHARE / size.height,
                _MAX_SIZE / 10.0,
            )
            w, h = size.width * scale, size.height * scale
            placed = Box(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)
            page.show_pdf_page(
                geometry.display_to_page_rect(page, placed),
                sheet,
                0,
                rotate=-page.rotation,
                keep_proportion=False,
            )


@lru_cache(maxsize=64)
def _sheet(text: str, colour: Rgb) -> bytes:
    """The text at 10 pt as outlines, a one-page PDF."""
    with text_sheet(
        " ".join(text.split()), "helvetica-bold", 10.0, colour, searchable=False
    ) as sheet:
        return bytes(sheet.tobytes(garbage=3, deflate=True))


def _contrast(fill: Rgb) -> Rgb:
    """White on a dark fill, black on a light one."""
    luminance = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b
    return Rgb(255, 255, 255) if luminance < 140 else Rgb(0, 0, 0)
