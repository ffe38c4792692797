"""Building PDFs and reading them independently for the text tests (engines/pdf/text).

Generated PDFs use fonts that PyMuPDF ships (Noto via `Font(script=...)`), so the
tests need nothing from the system. Geometry is checked against `pdftotext -bbox`
(poppler), an independent extractor that reports boxes in displayed space.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from engines.pdf import text
from engines.pdf.types import Box, PositionText, SearchQuery

LATIN = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_LATIN)
HEBREW = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_HEBREW)
ARABIC = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_ARABIC)

Writer = Callable[[pymupdf.Document], object]


def write(
    page: pymupdf.Page,
    origin: tuple[float, float],
    content: str,
    *,
    font: pymupdf.Font = LATIN,
    size: float = 12,
    right_to_left: bool = False,
) -> None:
    writer = pymupdf.TextWriter(page.rect)
    writer.append(
        origin, content, font=font, fontsize=size, right_to_left=right_to_left
    )
    writer.write_text(page)


def make_pdf(tmp_path: Path, build: Writer, name: str = "doc.pdf") -> str:
    document = pymupdf.open()
    build(document)
    path = tmp_path / name
    document.save(path)
    return str(path)


def search(path: str, query: str, page: int = 0, **flags: bool) -> list[PositionText]:
    return text.search_page(path, page, SearchQuery(query, **flags))


def poppler_words(path: str, page: int = 0) -> list[tuple[str, Box]]:
    """Words with boxes from `pdftotext -bbox` (displayed space, MediaBox origin)."""
    xml = subprocess.run(
        ["pdftotext", "-f", str(page + 1), "-l", str(page + 1), "-bbox", path, "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return poppler_words_from(xml)


def poppler_words_from(xml: str) -> list[tuple[str, Box]]:
    words = []
    pattern = (
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<'
    )
    for x0, y0, x1, y1, word in re.findall(pattern, xml):
        x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
        words.append((word, Box(x0, y0, x1 - x0, y1 - y0)))
    return words


def poppler_box(path: str, word: str, page: int = 0) -> Box:
    (box,) = [b for w, b in poppler_words(path, page) if w == word]
    return box


def shared_fractions(a: Box, b: Box) -> tuple[float, float]:
    """Intersection area as a fraction of a's area and of b's area."""
    width = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    height = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    shared = max(0.0, width) * max(0.0, height)
    return shared / (a.w * a.h), shared / (b.w * b.h)


def same_glyphs(a: Box, b: Box) -> bool:
    """Each box has most of its area in common with the other: MuPDF and poppler
    agree on the glyphs' advance but use different font ascent/descent, so heights
    differ by up to a third."""
    return min(shared_fractions(a, b)) >= 0.5


def assert_widths_fit(result: PositionText) -> None:
    assert len(result.individual_widths) == len(result.text)
    assert all(w >= 0 for w in result.individual_widths)
    along = result.position.h if result.rotation in (90, 270) else result.position.w
    assert sum(result.individual_widths) == pytest.approx(along, abs=0.01)
