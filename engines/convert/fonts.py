"""Fonts for the pages the engines draw themselves (text files, e-mail headers).

A chain: a monospaced font first (DejaVu Sans Mono from Debian's
fonts-dejavu, else MuPDF's built-in Courier), then wide-coverage fonts for
the characters it lacks (DejaVu Sans, the Noto Sans family of fonts-noto-core,
looked up lazily one script at a time), then MuPDF's built-in CJK font, which
is always there. Each character is drawn with the first font that has it, so
the text of any script is extractable from the PDF.
"""

from __future__ import annotations

import glob
import os
import threading
from functools import cache

import pymupdf

MONO_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
WIDE_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
)
# Script-specific Noto fonts (Arabic, Devanagari, Thai...), searched in order
# for a character that none of the fonts above has.
NOTO_GLOB = "/usr/share/fonts/truetype/noto/NotoSans*-Regular.ttf"


class FontChain:
    """The font to draw each character with. Thread-safe; build one with
    `font_chain()` (fonts are loaded once per process)."""

    def __init__(self) -> None:
        self.primary = _load(MONO_FONT) or pymupdf.Font("cour")
        self._fallbacks = [font for font in map(_load, WIDE_FONTS) if font]
        self._script_paths = sorted(set(glob.glob(NOTO_GLOB)) - set(WIDE_FONTS))
        self._cjk = pymupdf.Font("cjk")
        self._chosen: dict[str, pymupdf.Font] = {}
        self._lock = threading.Lock()

    @property
    def cell(self) -> float:
        """Advance of one character of the primary font, in em."""
        return float(self.primary.glyph_advance(ord("M")))

    def font_for(self, char: str) -> pymupdf.Font:
        code = ord(char)
        if self.primary.has_glyph(code):
            return self.primary
        found = self._chosen.get(char)
        if found is None:
            with self._lock:
                found = self._search(code)
                self._chosen[char] = found
        return found

    def _search(self, code: int) -> pymupdf.Font:
        for font in self._fallbacks:
            if font.has_glyph(code):
                return font
        if self._cjk.has_glyph(code):
            return self._cjk
        while self._script_paths:  # load the next script font only when needed
            loaded = _load(self._script_paths.pop(0))
            if loaded is not None:
                self._fallbacks.append(loaded)
                if loaded.has_glyph(code):
                    return loaded
        return self.primary  # drawn as a missing glyph, still in the text


def _load(path: str) -> pymupdf.Font | None:
    if not os.path.isfile(path):
        return None
    try:
        return pymupdf.Font(fontfile=path)
    except Exception:  # a damaged font file is as good as none
        return None


@cache
def font_chain() -> FontChain:
    return FontChain()
