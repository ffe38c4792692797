"""OCR accuracy on scans of real pages (the shared corpus), through the engine.

Latin-script pages with known words (FACTS.json, and every word `pdftotext`
finds) are drawn at 300 and 200 dpi, turned 1-2 degrees, blurred and noised
like a scanner would, wrapped as an image-only PDF, OCR'd, and searched. The
full measurement over more pages, with timings, is `bench/bench_ocr.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from engines.ocr import OcrOptions, ocr_pdf
from tests.ocr import accuracy
from tests.ocr.scans import scan_page

# (file, 0-based page): prose in two columns, a three-column layout, and a
# landscape reference card in small type.
PAGES = (("tracemonkey.pdf", 0), ("three_columns.pdf", 0), ("refcard-a4.pdf", 0))
# dpi → (least word recall, turn in degrees)
SETTINGS = {300: (0.97, 1.5), 200: (0.93, -1.0)}


@pytest.mark.corpus
@pytest.mark.accuracy
@pytest.mark.parametrize("dpi", sorted(SETTINGS))
def test_word_recall_and_boxes_on_noisy_skewed_scans(
    corpus: Path, facts: dict[str, Any], tmp_path: Path, dpi: int
) -> None:
    least_recall, skew = SETTINGS[dpi]
    scores = []
    for name, page in PAGES:
        with pymupdf.open(corpus / name) as doc:
            scan = scan_page(doc[page], dpi, skew=skew, blur=0.7, noise=10, seed=page)
        scanned = scan.pdf(tmp_path / f"{name}-{page}.pdf")
        out = tmp_path / f"{name}-{page}-ocr.pdf"
        report = ocr_pdf(str(scanned), str(out), OcrOptions(languages=("eng",)))
        assert report.pages_ocred == (0,)
        known = accuracy.facts_words(facts, name, page)
        known += accuracy.poppler_words(corpus / name, page)
        scores.append(accuracy.score(str(out), 0, scan, known))
    score = accuracy.total(scores)
    assert score.known > 1000
    assert score.recall >= least_recall, score.missed
    # At least half of each found word's known box is shared with its result.
    assert score.box_share >= 0.9
