"""Two numbered source documents: A with six pages, B with three."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pdf.assemble.helpers import _numbered


@pytest.fixture
def doc_a(tmp_path: Path) -> str:
    return _numbered(tmp_path / "a.pdf", "A", 6)


@pytest.fixture
def doc_b(tmp_path: Path) -> str:
    return _numbered(tmp_path / "b.pdf", "B", 3)
