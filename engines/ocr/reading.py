"""One page read by Tesseract: drawn, recognised, turned upright if need be,
and its languages narrowed down for the pages after it.

Pages count from 0; times are seconds; `deadline` values are `time.monotonic()`
instants.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pymupdf

from engines.ocr import gaps, raster, tesseract
from engines.ocr import languages as language_detection
from engines.ocr.textlayer import Frame, Word
from engines.ocr.types import OcrOptions
from engines.pdf.types import Box

# A first reading looks turned (a scan lying sideways or upside down) when most
# of its longer words stand upright (Tesseract reads vertical lines, but their
# boxes are tall) or its words are mostly guesses (upside-down text).
_TALL_SHARE = 0.5
_LOW_CONFIDENCE = 60.0
_LONG_WORD = 3
# Tesseract's orientation confidence below which a turn is not trusted (it is
# 30 and more on real pages turned by a quarter or a half).
_MIN_TURN_CONFIDENCE = 5.0
# Words of a second reading (`gaps`) are numbered in blocks after the first
# reading's, so that no line mixes both; guesses below this confidence (a
# rule read as "—", noise as letters) are not kept.
_SECOND_BLOCKS = 10_000
_MIN_SECOND_CONFIDENCE = 40.0


@dataclass(frozen=True, slots=True)
class PageReading:
    """The words of a page, in its frame (see `textlayer`)."""

    words: list[Word]
    frame: Frame
    dpi: float
    languages: tuple[str, ...]
    warnings: list[str] = field(default_factory=list)
    second_look: bool = False


class Reader:
    """Reads the pages of one document in turn, narrowing its languages.

    With several candidate languages and `detect_language`, the first page is
    read with the first candidate only; when its words show another candidate
    (`languages.detect`), the page is read again with the language(s) found,
    and later pages are read with those, each checked the same way. Reading
    with all candidates at once would cost 1.7 to 2.4 times as long on every
    page (OCR_NOTES); this costs one extra reading per change of language.
    """

    def __init__(self, options: OcrOptions) -> None:
        self.options = options
        self._detect = options.detect_language and len(options.languages) > 1
        self.languages = options.languages[:1] if self._detect else options.languages

    def read(self, page: pymupdf.Page, index: int, deadline: float) -> PageReading:
        """Read the 0-based page; raises EngineError subclasses when it cannot
        be read (PageTimeout past `deadline`, PageTooLarge)."""
        warnings: list[str] = []
        dpi = raster.choose_dpi(page, self.options.dpi)
        image = raster.draw(page, dpi, self.options.max_pixels, index)
        if image.capped:
            warnings.append(
                f"page {index} was read at {image.dpi:.0f} dpi instead of "
                f"{dpi:.0f} to stay within {self.options.max_pixels:,} pixels"
            )
        used = self.languages
        words = _recognise(image, used, deadline)
        if _looks_turned(words):
            image, words = self._upright(page, index, image, words, used, deadline)
        words = _second_look(image, words, used, deadline)
        if self._detect:
            found = language_detection.detect(
                [w.text for w in words], self.options.languages
            )
            if found is not None and found[0] not in used:
                # The page is in another of the candidate languages: read it
                # again in that one.
                used = found
                words = _second_look(
                    image, _recognise(image, used, deadline), used, deadline
                )
            if found is not None:
                self.languages = found
        frame = Frame(image.frame, image.frame_height)
        second = any(word.line[0] >= _SECOND_BLOCKS for word in words)
        return PageReading(words, frame, image.dpi, used, warnings, second)

    def _upright(
        self,
        page: pymupdf.Page,
        index: int,
        image: raster.Raster,
        words: list[Word],
        used: tuple[str, ...],
        deadline: float,
    ) -> tuple[raster.Raster, list[Word]]:
        """The page read again turned upright when Tesseract's orientation
        detection says it lies turned and the new words are better."""
        turn = tesseract.orientation(image.pnm, timeout=_left(deadline))
        if turn is None or turn[0] == 0 or turn[1] < _MIN_TURN_CONFIDENCE:
            return image, words
        turned = raster.draw(
            page, image.dpi, self.options.max_pixels, index, rotation=turn[0]
        )
        again = _recognise(turned, used, deadline)
        if _quality(again) > _quality(words):
            return turned, again
        return image, words


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise tesseract.PageTimeout("no time was left to read the page")
    return left


def _second_look(
    image: raster.Raster, words: list[Word], languages: Sequence[str], deadline: float
) -> list[Word]:
    """`words` and those a second reading finds on the ink they left unread
    (see `gaps`); `words` alone on a page they cover."""
    pixels = gaps.grey_pixels(image.pnm)
    zoom = image.zoom
    boxes = [
        (
            round(w.box.x * zoom),
            round(w.box.y * zoom),
            round(w.box.w * zoom),
            round(w.box.h * zoom),
        )
        for w in words
    ]
    unread = gaps.unread_ink(pixels, image.dpi, boxes)
    if unread is None:
        return words
    strips = unread.strips(pixels.shape[1], pixels.shape[0])
    stacked = gaps.stack(pixels, strips, gap=2 * unread.cell)
    raw = tesseract.recognise(
        stacked.pnm,
        languages=languages,
        dpi=image.dpi,
        timeout=_left(deadline),
        segmentation="6",
    )
    extra = []
    for word in raw:
        place = stacked.to_page(word.left, word.top, word.height)
        if place is None or word.confidence < _MIN_SECOND_CONFIDENCE:
            continue
        if unread.holds(place[0], place[1], word.width, word.height):
            extra.append(
                dataclasses.replace(
                    word,
                    left=place[0],
                    top=place[1],
                    line=(word.line[0] + _SECOND_BLOCKS, *word.line[1:]),
                )
            )
    return words + _words(extra, zoom)


def _recognise(
    image: raster.Raster, languages: Sequence[str], deadline: float
) -> list[Word]:
    """The words of `image`, with boxes in its frame (points)."""
    raw = tesseract.recognise(
        image.pnm, languages=languages, dpi=image.dpi, timeout=_left(deadline)
    )
    return _words(raw, image.zoom)


def _words(raw: Sequence[tesseract.RawWord], zoom: float) -> list[Word]:
    scale = 1 / zoom
    return [
        Word(
            text=word.text,
            box=Box(
                word.left * scale,
                word.top * scale,
                word.width * scale,
                word.height * scale,
            ),
            confidence=word.confidence,
            line=word.line,
        )
        for word in raw
    ]


def _long(words: Sequence[Word]) -> list[Word]:
    return [word for word in words if len(word.text) >= _LONG_WORD]


def _looks_turned(words: Sequence[Word]) -> bool:
    long = _long(words)
    if not long:
        return False
    tall = sum(1 for word in long if word.box.h > word.box.w)
    confidence = sum(word.confidence * len(word.text) for word in long) / sum(
        len(word.text) for word in long
    )
    return tall >= _TALL_SHARE * len(long) or confidence < _LOW_CONFIDENCE


def _quality(words: Sequence[Word]) -> float:
    """Confidence-weighted letters of the words that lie along the frame."""
    return sum(
        word.confidence * len(word.text)
        for word in _long(words)
        if word.box.w >= word.box.h
    )
