"""Every corpus PDF uploads and its layout matches poppler's facts (FACTS.json)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests import corpus as corpus_module
from tests.conftest import doc_url

NAMES = sorted(corpus_module.facts()) if corpus_module.available() else []


def expected_pages(fact: dict[str, Any]) -> list[tuple[int, int, int]] | None:
    """Displayed (width, height, rotation) per page; FACTS gives unrotated sizes."""
    geometry = fact.get("page_geometry")
    if not geometry:
        return None
    out = []
    for g in geometry:
        w, h = (g["h"], g["w"]) if g["rotate"] % 180 else (g["w"], g["h"])
        out.append((int(w), int(h), g["rotate"] % 360))
    return out


def summary_of(pages: list[dict[str, int]]) -> Counter[str]:
    """Pages in FACTS' summary form `612x792 rot0` (unrotated sizes, truncated)."""
    out: Counter[str] = Counter()
    for p in pages:
        w, h = (
            (p["height"], p["width"])
            if p["rotation"] % 180
            else (p["width"], p["height"])
        )
        out[f"{w}x{h} rot{p['rotation']}"] += 1
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("name", NAMES)
def test_corpus_layout_matches_facts(
    name: str,
    corpus: Path,
    facts: dict[str, Any],
    client: Any,
    upload: Callable[..., Any],
) -> None:
    fact = facts[name]
    response = upload((corpus / name).read_bytes(), documentTitle=name)
    if fact.get("pages") is None:
        assert response.status_code == 415, f"{name} is not openable per FACTS"
        return
    assert response.status_code == 200, response.content
    doc_id = response.json()["id"]
    layout = client.get(doc_url(doc_id, "/layout")).json()
    pages = layout["pageDimensionsList"]
    assert len(pages) == fact["pages"]
    assert all(p["dpi"] == 72 and p["pageLayers"] is None for p in pages)
    expected = expected_pages(fact)
    if expected is not None:
        assert [(p["width"], p["height"], p["rotation"]) for p in pages] == expected
    else:  # large documents: FACTS keeps a summary only
        want = Counter(
            {_trunc_key(k): v for k, v in fact["page_geometry_summary"].items()}
        )
        assert summary_of(pages) == want


def _trunc_key(key: str) -> str:
    size, rot = key.split(" ")
    w, h = (int(float(v)) for v in size.split("x"))
    return f"{w}x{h} {rot}"
