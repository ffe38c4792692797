"""The source document of the annotation tests, and a reader of live annotations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pikepdf
import pymupdf
import pytest

from tests.pdf.annotate.helpers import LINK_BOX, ROTATIONS, Reader


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Four 400 × 300 pt pages, one per rotation, each with a link."""
    document = pymupdf.open()
    for rotation in ROTATIONS:
        page = document.new_page(width=400, height=300)
        page.insert_link(
            {"kind": pymupdf.LINK_URI, "from": LINK_BOX, "uri": "https://example.org/"}
        )
        page.set_rotation(rotation)
    path = tmp_path_factory.mktemp("annotate") / "source.pdf"
    document.save(path)
    return str(path)


@pytest.fixture
def live_annots() -> Iterator[Reader]:
    """Reads a page's markup annotations by /NM; the files close after the test."""
    opened: list[pikepdf.Pdf] = []

    def read(path: str, page: int) -> dict[str, Any]:
        pdf = pikepdf.open(path)
        opened.append(pdf)
        skipped = (pikepdf.Name.Link, pikepdf.Name.Popup)
        annots = pdf.pages[page].obj.Annots
        return {str(a.NM): a for a in annots if a.Subtype not in skipped}

    yield read
    for pdf in opened:
        pdf.close()
