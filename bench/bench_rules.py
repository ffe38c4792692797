"""Benchmark of redaction by rules: what one order with a rule set costs its
worker, against PyMuPDF searching and redacting the same words in process.

Run: `.venv/bin/python bench/bench_rules.py [--runs 5] [--json FILE]`
(standalone, no database). A 10-page statement naming "Acme", e-mail
addresses and card numbers (valid and not) on every page; rules: the text
"Acme", the e-mail preset, the card preset. Medians of --runs of:

- PyMuPDF in process: each page's text searched for "Acme" (`search_for`),
  the e-mail and card patterns run on its text (cards Luhn-checked), each hit
  located with `search_for`, `add_redact_annot` + `apply_redactions`, saved;
- the engine as the order's worker runs it: `engines.rules.find_matches`,
  then `apply_annotations` in burn mode (redaction, allowlist rebuild, scrub
  of every copy, the independent verification, the evidence counts);
- the matching alone (`find_matches`: what a dry run costs).

Goal: the engine at most 2× PyMuPDF.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from engines.pdf.annotate import apply_annotations  # noqa: E402
from engines.pdf.redact import Removed  # noqa: E402
from engines.pdf.text import clear_cache  # noqa: E402
from engines.pdf.types import Annotation, Placement  # noqa: E402
from engines.rules import Rule, checks, find_matches  # noqa: E402

GOAL = 2.0
RULES = [Rule("text", "Acme"), Rule("preset", "email"), Rule("preset", "card")]
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,24}")
CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){11,18}(?![\d-])")


def make_document(dest: Path) -> None:
    """Ten pages of 40 lines; on each, Acme, two addresses, a valid and an
    invalid card number among ordinary words."""
    doc = pymupdf.open()
    filler = "The quarterly statement lists the transfers of the account holder"
    for number in range(1, 11):
        page = doc.new_page()
        for n in range(40):
            line = f"{filler} line {n}"
            if n == 5:
                line = f"Transfer {number} to Acme Holdings of 1,250.00 EUR"
            elif n == 12:
                line = f"Contact clerk{number}@acme-bank.example or ops@example.org"
            elif n == 20:
                line = "Card 4111 1111 1111 1111 charged; 4111 1111 1111 1112 refused"
            elif n == 31:
                line = f"Signed for acme by agent {number}"
            page.insert_text((50, 60 + 18 * n), line, fontsize=9)
    doc.save(dest, garbage=3, deflate=True)


def pymupdf_redaction(src: Path, dest: Path) -> int:
    """PyMuPDF alone: search, pattern, locate, redact, save. Returns the hits."""
    hits = 0
    with pymupdf.open(src) as doc:
        for page in doc:
            found = list(page.search_for("Acme"))
            text = page.get_text()
            words = EMAIL.findall(text) + [
                m.group(0)
                for m in CARD.finditer(text)
                if checks.luhn(checks.digits(m.group(0)))
            ]
            for word in words:
                found += page.search_for(word)
            for rect in found:
                page.add_redact_annot(rect, fill=(0, 0, 0))
            hits += len(found)
            page.apply_redactions()
        doc.save(dest, garbage=3, deflate=True)
    return hits


def engine_redaction(src: Path, dest: Path) -> int:
    """As the order's worker: the rules' matches redacted, scrubbed, verified."""
    clear_cache()  # each run reads the file afresh, as a worker does
    found = find_matches(str(src), RULES, document_key="doc")
    placements = [
        Placement(m.page, Annotation("RedactTextElemType", "doc", m.page, m.id,
                                     coords=m.boxes))
        for m in found
        if m.is_area and m.page is not None
    ]  # fmt: skip
    report = apply_annotations(
        str(src),
        str(dest),
        placements,
        mode="burn",
        scrub=[Removed(m.text, m.starts_word, m.ends_word) for m in found],
        hash_text=lambda text: str(hash(text)),
    )
    assert report.redaction_verified
    return len(found)


def matching(src: Path) -> int:
    clear_cache()
    return len(find_matches(str(src), RULES, document_key="doc"))


def _medians(actions: list[Callable[[], object]], runs: int) -> list[float]:
    """The median time of each action, the actions taking turns (a run of
    each, then again) so that a shared machine's load weighs on all alike."""
    for action in actions:
        action()  # warm-up
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for n, action in enumerate(actions):
            start = time.perf_counter()
            action()
            times[n].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        src = scratch / "statement.pdf"
        make_document(src)
        theirs, ours = scratch / "pymupdf.pdf", scratch / "engine.pdf"
        row: dict[str, Any] = {
            "input": "statement 10 p, 3 rules",
            "pymupdf_hits": pymupdf_redaction(src, theirs),
            "engine_matches": engine_redaction(src, ours),
        }
        baseline, engine, found = _medians(
            [
                lambda: pymupdf_redaction(src, theirs),
                lambda: engine_redaction(src, ours),
                lambda: matching(src),
            ],
            args.runs,
        )
    row.update(
        pymupdf_s=round(baseline, 4),
        engine_s=round(engine, 4),
        matching_s=round(found, 4),
        ratio=round(engine / baseline, 2),
        goal=f"<= {GOAL}x",
    )
    print(" | ".join(row))
    print(" | ".join(str(value) for value in row.values()))
    if args.json:
        args.json.write_text(json.dumps([row], indent=2))


if __name__ == "__main__":
    main()
