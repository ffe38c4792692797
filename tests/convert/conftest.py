"""Fixtures of the converter tests: one warm LibreOffice pool for the whole
session (starting instances is the expensive part), the office corpus."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engines.convert import Limits

CORPUS_OFFICE = Path(__file__).resolve().parents[2].parent / "shared" / "corpus-office"


def office_available() -> bool:
    """LibreOffice and the system Python's uno module (python3-uno)."""
    if shutil.which("soffice") is None or not Path("/usr/bin/python3").exists():
        return False
    probe = subprocess.run(
        ["/usr/bin/python3", "-c", "import uno"], capture_output=True
    )
    return probe.returncode == 0


@pytest.fixture(scope="session")
def office_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Two instances (this machine has two cores), shared by every test."""
    if not office_available():
        pytest.skip("LibreOffice (soffice) or python3-uno is not installed")
    from engines.convert.office import OfficePool, PoolSettings

    workdir = tmp_path_factory.mktemp("office-pool")
    pool = OfficePool(PoolSettings(size=2, timeout=60, workdir=str(workdir)))
    pool.start()
    yield pool
    pool.close()


@pytest.fixture
def limits() -> Limits:
    return Limits(timeout=60)


@pytest.fixture(scope="session")
def corpus_office() -> Path:
    if not (CORPUS_OFFICE / "FACTS.json").is_file():
        pytest.skip(f"office corpus not found at {CORPUS_OFFICE}")
    return CORPUS_OFFICE


@pytest.fixture(scope="session")
def office_facts(corpus_office: Path) -> dict[str, Any]:
    facts: dict[str, Any] = json.loads((corpus_office / "FACTS.json").read_text())
    return facts["files"]
