"""Uploads of every kind through the API, converted by the (sync) worker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engines.convert import close_process_pool

CORPUS_OFFICE = Path(__file__).resolve().parents[2].parent / "shared" / "corpus-office"


@pytest.fixture(scope="session", autouse=True)
def _close_office_pool() -> Iterator[None]:
    """The LibreOffice pool the sync worker starts in this process ends with the
    session, not at interpreter exit."""
    yield
    close_process_pool()


@pytest.fixture(scope="session")
def office_facts() -> dict[str, Any]:
    facts = CORPUS_OFFICE / "FACTS.json"
    if not facts.is_file():
        pytest.skip(f"corpus-office not found at {CORPUS_OFFICE}")
    return dict(json.loads(facts.read_text())["files"])
