"""Fixtures of the text tests: an empty document cache for each test, a small page."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf import text
from tests.pdf.text.helpers import make_pdf, write


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    text.clear_cache()


@pytest.fixture
def two_lines_pdf(tmp_path: Path) -> str:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (72, 100), "the quick brown")
        write(page, (72, 120), "fox jumps over")
        write(page, (72, 300), "A separate paragraph far below.")

    return make_pdf(tmp_path, build)
