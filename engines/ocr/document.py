"""OCR of a whole PDF: `ocr_pdf` reads the pages that need it and writes a copy
with an invisible text layer on each page read.

Pages count from 0; times are seconds; positions are displayed space (points).
Like the rest of the engine outside `engines.pdf.text`, call it from one
thread at a time in a process (MuPDF is not thread-safe); Tesseract runs in a
child process, one at a time, single-threaded.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pymupdf

from engines.errors import EngineError, UnsupportedDocument
from engines.ocr import select, tesseract, textlayer
from engines.ocr.reading import Reader
from engines.ocr.types import (
    OcrOptions,
    OcrProgress,
    OcrReport,
    PageResult,
    PageWarning,
)
from engines.pdf.failures import engine_failures

logger = logging.getLogger(__name__)

Progress = Callable[[OcrProgress], None]


def ocr_pdf(
    src: str,
    dest: str,
    options: OcrOptions | None = None,
    *,
    pages: Sequence[int] | None = None,
    progress: Progress | None = None,
) -> OcrReport:
    """Write at `dest` the PDF `src` with a text layer on the pages read.

    `src` is never changed. `pages`: the 0-based pages to consider, in the order
    given (None: all); the others are copied as they are. Which pages are read
    follows `options.mode` (see `select.page_need`). `progress` is called after
    each page considered; an exception it raises stops the work (nothing is
    written). A page that fails (its time limit, the pixel cap, Tesseract
    failing) keeps no text layer and gets a warning; pages not begun before
    `options.deadline` are listed as pending: calling again on `dest` with them
    continues the work (read pages have text, so "auto" does not read them twice).
    Raises OcrUnavailable when Tesseract or a language is missing,
    UnsupportedDocument when `src` is not a readable PDF, EngineError when
    `dest` cannot be written.
    """
    options = options or OcrOptions()
    started = time.monotonic()
    tesseract.check_languages(options.languages)
    if os.path.exists(dest) and os.path.samefile(src, dest):
        raise EngineError(
            "OCR writes a new file: the destination must not be the source"
        )
    doc = _open(src)
    try:
        run = _Run(doc, options, started)
        selected = _selected(doc, pages)
        for done, index in enumerate(selected, start=1):
            if run.past_deadline():
                run.pending.extend(selected[done - 1 :])
                run.warnings.append(
                    PageWarning(
                        index,
                        f"the OCR deadline of {options.deadline:g} s passed; "
                        f"{len(selected) - done + 1} pages were not read",
                    )
                )
                break
            words = run.page(index)
            if progress is not None:
                progress(OcrProgress(index, done, len(selected), words))
        _write(doc, src, dest, changed=bool(run.ocred))
    finally:
        doc.close()
    return run.report(time.monotonic() - started)


@dataclass
class _Run:
    """The state of one `ocr_pdf` call: what has been done, which languages."""

    doc: pymupdf.Document
    options: OcrOptions
    started: float
    reader: Reader = field(init=False)
    font: int | None = None
    ocred: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    results: list[PageResult] = field(default_factory=list)
    warnings: list[PageWarning] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reader = Reader(self.options)

    def past_deadline(self) -> bool:
        return self.remaining() <= 0

    def remaining(self) -> float:
        if self.options.deadline is None:
            return float("inf")
        return self.options.deadline - (time.monotonic() - self.started)

    def page(self, index: int) -> int:
        """Consider the 0-based page `index`; the number of words it received."""
        page = self.doc[index]
        with engine_failures(f"page {index} cannot be read"):
            need = select.page_need(page, self.options.mode)
        if not need.ocr:
            self.skipped.append(index)
            return 0
        began = time.monotonic()
        budget = min(self.options.page_timeout, self.remaining())
        try:
            reading = self.reader.read(page, index, began + budget)
        except EngineError as exc:
            reason = str(exc)
            if isinstance(exc, tesseract.PageTimeout):
                limit = "deadline" if budget < self.options.page_timeout else "limit"
                reason = f"reading it took longer than the {budget:g} s {limit}"
            self.failed.append(index)
            self.warnings.append(
                PageWarning(index, f"page {index} was not read: {reason}")
            )
            logger.info("OCR of page %d stopped: %s", index, exc)
            return 0
        self.warnings += [PageWarning(index, text) for text in reading.warnings]
        words = reading.words
        if need.has_text:
            existing = select.existing_text(page)
            words = [
                word
                for word in words
                if not select.overlaps_text(
                    reading.frame.display_box(word.box), existing
                )
            ]
        if self.font is None:
            self.font = textlayer.add_font(self.doc)
        with engine_failures(f"the text of page {index} cannot be written"):
            textlayer.write_words(page, self.font, words, reading.frame)
        self.ocred.append(index)
        self.results.append(
            PageResult(
                index,
                len(words),
                reading.dpi,
                reading.languages,
                time.monotonic() - began,
                mean_confidence(words),
                reading.second_look,
            )
        )
        return len(words)

    def report(self, seconds: float) -> OcrReport:
        return OcrReport(
            pages_ocred=tuple(self.ocred),
            pages_skipped=tuple(self.skipped),
            pages_failed=tuple(self.failed),
            pages_pending=tuple(self.pending),
            words=sum(result.words for result in self.results),
            seconds=seconds,
            languages=self.reader.languages,
            pages=tuple(self.results),
            warnings=tuple(self.warnings),
        )


def mean_confidence(words: Sequence[textlayer.Word]) -> float | None:
    """Tesseract's confidence over `words`, weighted by their letters."""
    letters = sum(len(word.text) for word in words)
    if not letters:
        return None
    return sum(word.confidence * len(word.text) for word in words) / letters


def _open(src: str) -> pymupdf.Document:
    try:
        doc = pymupdf.open(src, filetype="pdf")
    except Exception as exc:  # MuPDF raises several unrelated types here
        reason = str(exc).replace(src, "the file")
        raise UnsupportedDocument(f"the file is not a readable PDF ({reason})") from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise UnsupportedDocument("the PDF is protected by a password")
    return doc


def _selected(doc: pymupdf.Document, pages: Sequence[int] | None) -> list[int]:
    if pages is None:
        return list(range(doc.page_count))
    for index in pages:
        if not 0 <= index < doc.page_count:
            raise EngineError(
                f"page {index} does not exist: the document has {doc.page_count} "
                "pages, counted from 0"
            )
    return list(pages)


def _write(doc: pymupdf.Document, src: str, dest: str, *, changed: bool) -> None:
    """A full rewrite when a page received text; a plain copy otherwise."""
    try:
        if changed:
            # The text layer's streams were compressed when written; deflating
            # every stream would also compress a source's raw scans, a second
            # of CPU per page, to no one's benefit but the file size's.
            doc.save(dest, garbage=1)
        else:
            shutil.copyfile(src, dest)
    except (OSError, RuntimeError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or "the file system refused it"
        raise EngineError(f"the OCR result cannot be written: {reason}") from exc
