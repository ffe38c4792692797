"""Dense small print: ink the layout analysis leaves unread is read again.

The census table of the shared corpus (7 pt figures under 7 pt notes) lost
whole lines to Tesseract's page layout: 69 % of its words at 300 dpi. The
unread ink is found on a coarse grid (`engines.ocr.gaps`) and read a second
time; the page's report says so, with its mean confidence. The bench
(`bench/bench_ocr.py`) measures it on more pages and at 200 dpi too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from engines.ocr import OcrOptions, ocr_pdf
from engines.ocr.gaps import grey_pixels, pgm, unread_ink
from tests.ocr import accuracy
from tests.ocr.scans import scan_page


def page_with_lines(lines: int) -> np.ndarray:
    """A 300 dpi grey page (1 x 1.5 in) with `lines` black bars of text size."""
    pixels = np.full((450, 300), 255, np.uint8)
    for number in range(lines):
        top = 30 + number * 40
        pixels[top : top + 20, 30:270] = 0
    return pixels


def test_ink_no_word_covers_is_found_and_ink_words_cover_is_not() -> None:
    pixels = grey_pixels(pgm(page_with_lines(8)))
    first_four = [(30, 30 + n * 40, 240, 20) for n in range(4)]
    all_eight = [(30, 30 + n * 40, 240, 20) for n in range(8)]

    unread = unread_ink(pixels, 300, first_four)

    assert unread is not None
    left, top, right, bottom = unread.box
    assert top <= 30 + 4 * 40 and bottom >= 30 + 7 * 40 + 20  # lines 5 to 8
    assert top > 30 + 3 * 40  # not the lines read
    strips = unread.strips(300, 450)  # lines close together make one band
    assert min(top for _, top, _, _ in strips) > 30 + 3 * 40 + 10
    assert max(bottom for _, _, _, bottom in strips) >= 30 + 7 * 40 + 20
    assert unread_ink(pixels, 300, all_eight) is None


def test_noise_is_not_taken_for_unread_text() -> None:
    noise = np.random.default_rng(3).integers(0, 256, (450, 300), dtype=np.uint8)

    assert unread_ink(noise, 300, []) is None


@pytest.mark.corpus
@pytest.mark.accuracy
def test_a_dense_census_table_keeps_its_lines_at_300_dpi(
    corpus: Path, tmp_path: Path
) -> None:
    with pymupdf.open(corpus / "12s0324.pdf") as doc:
        scan = scan_page(doc[0], 300, skew=1.5, blur=0.7, noise=10, seed=0)
    scanned = scan.pdf(tmp_path / "census.pdf")
    out = tmp_path / "census-ocr.pdf"

    report = ocr_pdf(str(scanned), str(out), OcrOptions(languages=("eng",)))

    score = accuracy.score(
        str(out), 0, scan, accuracy.poppler_words(corpus / "12s0324.pdf", 0)
    )
    assert score.recall >= 0.95, score.missed  # 0.69 with one reading
    page = report.pages[0]
    assert page.second_look
    assert page.confidence is not None and 50 < page.confidence <= 100
