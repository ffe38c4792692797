"""Where the shared real-world corpus lives, for tests and benchmarks."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
ABSENT_REASON = (
    f"corpus not found at {CORPUS} (needs ../shared/corpus beside the checkout)"
)


def available() -> bool:
    return (CORPUS / "FACTS.json").is_file()


@cache
def facts() -> dict[str, Any]:
    """FACTS.json's per-file facts, keyed by file name."""
    return json.loads((CORPUS / "FACTS.json").read_text())["files"]
