"""Search finds the distinctive words of the corpus where poppler sees them (FACTS.json)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from engines.pdf import text
from engines.pdf.types import Box
from tests import corpus as corpus_module
from tests.pdf.text.helpers import same_glyphs, search

# pdftotext -bbox measures from the MediaBox's top-left corner, decisions §4 from the
# CropBox's; FACTS boxes are shifted by the crop offset before comparing.
# poppler-90-0-fuzzed.pdf: qpdf --check reports damaged streams; poppler salvages
# words that MuPDF drops with the broken content streams (pages 3 and 10).
UNRECOVERABLE = {"poppler-90-0-fuzzed.pdf"}


def page_text(path: str, page: int) -> str:
    return " ".join(line.text for line in text.page_lines(path, page)).casefold()


def facts_box_in_display(bbox: list[float], pdf_page: pikepdf.Page) -> Box:
    crop = [float(v) for v in pdf_page.cropbox]  # inherited values resolved
    media = [float(v) for v in pdf_page.mediabox]
    dx, dy = crop[0] - media[0], media[3] - crop[3]
    if (dx or dy) and pdf_page.rotation % 360:
        pytest.fail("crop offset on a rotated page: convert FACTS boxes for it")
    return Box(bbox[0] - dx, bbox[1] - dy, bbox[2] - bbox[0], bbox[3] - bbox[1])


def corpus_documents() -> list[str]:
    if not corpus_module.available():
        return ["absent"]
    return sorted(
        name
        for name, fact in corpus_module.facts().items()
        if fact["distinctive_words"]
    )


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_documents())
def test_distinctive_words_are_found_where_poppler_sees_them(
    corpus: Path, facts: dict[str, Any], name: str
) -> None:
    fact = facts[name]
    path = str(corpus / name)
    with pikepdf.open(path) as pdf:
        missed = []
        for entry in fact["distinctive_words"]:
            page = entry["page"] - 1
            for word in entry["words"]:
                typed = word.get("nfkc_reversed") or word["word"]
                expected = facts_box_in_display(word["bbox"], pdf.pages[page])
                found = search(path, typed, page=page)
                if not any(same_glyphs(r.position, expected) for r in found):
                    missed.append((entry["page"], typed, found))
    if name in UNRECOVERABLE:
        # A word may be missed only when MuPDF's text of the page lacks it.
        missed = [m for m in missed if m[1].casefold() in page_text(path, m[0] - 1)]
    assert missed == []
