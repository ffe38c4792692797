"""The OCR engine: scanned pages made searchable (pure functions, no Django).

`ocr_pdf(src, dest, options)` reads the pages of `src` that need it (see
`OcrOptions.mode`) with Tesseract and writes at `dest` a copy whose pages carry
the recognised words as invisible text, each word's glyphs spanning its box on
the scan: search, line listing, text diff and redaction of `engines.pdf` work
on it as on any PDF. Pages count from 0; positions are points in displayed-page
space (decisions §4); times are seconds.

Layout: `types` (options, report), `select` (which pages), `raster` (a page
drawn for Tesseract), `tesseract` (the program, under a time limit),
`languages` (which languages a document is in), `textlayer` (the invisible
words), `document` (`ocr_pdf`).
"""

from engines.errors import OcrUnavailable
from engines.ocr.document import ocr_pdf
from engines.ocr.select import image_cover, page_need
from engines.ocr.tesseract import installed_languages
from engines.ocr.types import (
    DEFAULT_LANGUAGES,
    OcrMode,
    OcrOptions,
    OcrProgress,
    OcrReport,
    PageResult,
    PageWarning,
)

__all__ = [
    "DEFAULT_LANGUAGES",
    "OcrMode",
    "OcrOptions",
    "OcrProgress",
    "OcrReport",
    "OcrUnavailable",
    "PageResult",
    "PageWarning",
    "image_cover",
    "installed_languages",
    "ocr_pdf",
    "page_need",
]
