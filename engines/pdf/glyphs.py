"""What extracted text says about its glyphs: font names and writing direction.

Shared by the text engines (search, text diff, redaction) so that they report
font names and right-to-left text the same way.
"""

from __future__ import annotations

import re
import unicodedata

# Embedded subsets are named "ABCDEF+Font" (PDF 32000-1, 9.6.4); users know "Font".
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")


def strip_subset_prefix(font: str) -> str:
    """The font name without the six-letter tag of an embedded subset."""
    return _SUBSET_PREFIX.sub("", font)


def has_right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter (Hebrew, Arabic...)."""
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


# A glyph box taller than this many font sizes comes from a lying font box (a
# Type 3 font may declare one hundreds of lines tall): it is cut down to
# CAP_ASCENT above and CAP_DESCENT below the baseline. Search results, the
# redaction's edge rule and its check then reason about the line the glyph
# sits on, not the whole page.
TALL_GLYPH = 2.5
CAP_ASCENT, CAP_DESCENT = 1.2, 0.5


def is_tall(bbox: tuple[float, ...], size: float, horizontal: bool) -> bool:
    """Whether a (horizontal or vertical) span or glyph box is implausibly tall."""
    extent = bbox[3] - bbox[1] if horizontal else bbox[2] - bbox[0]
    return size > 0 and extent > TALL_GLYPH * size


def capped_box(
    bbox: tuple[float, ...], origin: tuple[float, float], size: float
) -> tuple[float, float, float, float]:
    """A horizontal glyph's box (PyMuPDF page space, y down) cut to a plausible
    height around its baseline at `origin`."""
    x0, y0, x1, y1 = bbox[:4]
    baseline = origin[1]
    return (
        x0,
        max(y0, baseline - CAP_ASCENT * size),
        x1,
        min(y1, baseline + CAP_DESCENT * size),
    )
