"""Fixtures of the OCR engine's tests: real Tesseract, scans made on the spot."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from engines.pdf import text
from tests.ocr.scans import Scan, scan_page, text_pdf

PARAGRAPHS = (
    "The quarterly report shows that revenue grew steadily across every region, "
    "while operating costs remained under control thanks to careful planning.",
    "Confidential: the acquisition of Northwind Traders will be announced on "
    "Monday, and the purchase price must not be disclosed before then.",
    "Employees should contact the compliance office with any question about "
    "trading restrictions during the quiet period.",
)


@pytest.fixture(autouse=True)
def _fresh_text_cache() -> Iterator[None]:
    """Outputs are rewritten in place between steps of a test; search must not
    answer from an earlier version's cache."""
    text.clear_cache()
    yield
    text.clear_cache()


@pytest.fixture(scope="session")
def text_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A typeset A4 page whose words and boxes are known (it has a text layer)."""
    return text_pdf(tmp_path_factory.mktemp("text") / "text.pdf", PARAGRAPHS)


@pytest.fixture(scope="session")
def scan(text_page: Path) -> Scan:
    """That page scanned in grey at 300 dpi, slightly noisy."""
    with pymupdf.open(text_page) as doc:
        return scan_page(doc[0], 300, noise=6)


@pytest.fixture(scope="session")
def _scanned_pdf_once(scan: Scan, tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Encoding the noisy page takes about 2 s; each test gets a copy of its own.
    return scan.pdf(tmp_path_factory.mktemp("scan") / "scan.pdf")


@pytest.fixture
def scanned_pdf(_scanned_pdf_once: Path, tmp_path: Path) -> Path:
    """The scan as an image-only PDF page, as a scanner writes it."""
    return Path(shutil.copy(_scanned_pdf_once, tmp_path / "scan.pdf"))
