"""Inputs and outputs of the OCR engine (frozen dataclasses, no Django).

Pages count from 0. Times are seconds, resolutions dots per inch of the page as
displayed, sizes of images pixels; positions are points in displayed-page space
(decisions §4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.errors import EngineError

OcrMode = Literal["auto", "always", "never"]
OCR_MODES: tuple[OcrMode, ...] = ("auto", "always", "never")

# The languages the service reads by default: the Latin-script languages whose
# Tesseract models the install script puts on every machine.
DEFAULT_LANGUAGES = ("eng", "fra", "deu", "spa", "ita", "por", "nld")


@dataclass(frozen=True, slots=True)
class OcrOptions:
    """How a document is read.

    `languages`: Tesseract codes of the languages the pages may be written in.
    `detect_language`: when several are given, pages are read with the first
    one and the words found tell which of them the document is written in:
    a page whose words show another candidate is read again in that language,
    and the pages after it in that one (each extra language loaded costs time on
    every page; see OCR_NOTES). False: every page is read with all of them.
    `mode`: which pages are read (see `engines.ocr.select`): "auto" pages with no
    text whose images cover most of the page, "always" every page (words where
    the page already has text are dropped, so no text is doubled), "never" none.
    `page_timeout`: seconds Tesseract may spend on one page; it is then killed and
    the page keeps no text layer (a warning says so).
    `deadline`: seconds for the whole document, or None; pages not begun by then
    are reported in `OcrReport.pages_pending` and can be read by a second call.
    `max_pixels`: largest image handed to Tesseract; a larger page is read at a
    lowered resolution (with a warning), or not at all below `MIN_DPI`.
    `dpi`: resolution pages are drawn at for Tesseract; None takes the resolution
    of the page's largest image (its scan: its own pixels, never enlarged, finer
    than 200 dpi reduced to 200), and 200 on pages without an image.
    """

    languages: tuple[str, ...] = DEFAULT_LANGUAGES
    detect_language: bool = True
    mode: OcrMode = "auto"
    page_timeout: float = 60.0
    deadline: float | None = None
    max_pixels: int = 25_000_000
    dpi: int | None = None

    def __post_init__(self) -> None:
        if self.mode not in OCR_MODES:
            raise EngineError(f"OCR mode must be one of {', '.join(OCR_MODES)}")
        if not self.languages:
            raise EngineError("at least one OCR language is needed")
        if not self.page_timeout > 0:
            raise EngineError("the OCR page time limit must be positive")
        if self.deadline is not None and not self.deadline > 0:
            raise EngineError("the OCR deadline must be positive")
        if self.max_pixels < 1_000_000:
            raise EngineError("the OCR pixel cap must be at least 1,000,000 pixels")
        if self.dpi is not None and not 70 <= self.dpi <= 1200:
            raise EngineError("the OCR resolution must be between 70 and 1200 dpi")


@dataclass(frozen=True, slots=True)
class PageWarning:
    """Something a user should know about one page (0-based)."""

    page: int
    message: str


@dataclass(frozen=True, slots=True)
class PageResult:
    """One page read: how, and what came of it. `confidence` is the mean of
    Tesseract's confidence (0 to 100) over the page's words, weighted by
    their letters; None for a page without words. `second_look`: part of
    the page was read again, its layout having left ink unread (`gaps`)."""

    page: int
    words: int
    dpi: float
    languages: tuple[str, ...]
    seconds: float  # drawing, recognition and writing the text layer
    confidence: float | None = None
    second_look: bool = False


@dataclass(frozen=True, slots=True)
class OcrProgress:
    """Sent after each page considered: `done` of `total` pages, 0-based `page`."""

    page: int
    done: int
    total: int
    words: int


@dataclass(frozen=True, slots=True)
class OcrReport:
    """What `ocr_pdf` did. Pages count from 0.

    `pages_ocred`: pages that received a text layer (possibly of no words).
    `pages_skipped`: pages the mode left alone (they have text, or no scan).
    `pages_failed`: pages whose reading stopped (time limit, too large, Tesseract
    failed); each has a warning, and keeps no text layer.
    `pages_pending`: pages not begun before the deadline.
    """

    pages_ocred: tuple[int, ...]
    pages_skipped: tuple[int, ...]
    pages_failed: tuple[int, ...]
    pages_pending: tuple[int, ...]
    words: int
    seconds: float
    languages: tuple[str, ...]  # the languages the last page was read with
    pages: tuple[PageResult, ...]
    warnings: tuple[PageWarning, ...]

    @property
    def complete(self) -> bool:
        """Whether every page that needed reading was read."""
        return not self.pages_failed and not self.pages_pending

    def confidences(self) -> dict[int, float | None]:
        """The mean word confidence (0 to 100) of each page read, by page."""
        return {result.page: result.confidence for result in self.pages}

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary for storing with the document (snake_case)."""
        return {
            "pages_ocred": list(self.pages_ocred),
            "pages_failed": list(self.pages_failed),
            "pages_pending": list(self.pages_pending),
            "words": self.words,
            "seconds": round(self.seconds, 3),
            "languages": list(self.languages),
            "pages": [
                {
                    "page": r.page,
                    "words": r.words,
                    "dpi": round(r.dpi, 1),
                    "languages": list(r.languages),
                    "confidence": None
                    if r.confidence is None
                    else round(r.confidence, 1),
                    "second_look": r.second_look,
                    "seconds": round(r.seconds, 3),
                }
                for r in self.pages
            ],
            "warnings": [{"page": w.page, "message": w.message} for w in self.warnings],
        }
