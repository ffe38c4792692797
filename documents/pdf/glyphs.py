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
