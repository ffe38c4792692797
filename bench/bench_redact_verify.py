"""Benchmark of the redaction check (engines/verify) and of the whole redaction.

Run: `.venv/bin/python bench/bench_redact_verify.py [--runs 5] [--json FILE]`
(standalone; the corpus rows need the shared corpus beside the checkout).
For each input, the median of --runs of:

- PyMuPDF in-process: add_redact_annot + apply_redactions + save (baseline);
- the engine: `apply_annotations` in `burn` mode, which redacts, rebuilds the
  output from its allowlist and checks it (`redaction_verified`);
- the check alone (`engines.verify.verify`) on the engine's output;

with the engine / PyMuPDF ratio (goal: at most 3, check included) and the
check's share of the engine's time.
"""

from __future__ import annotations

import argparse
import json
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

from bench.inputs import SECRET, _redaction_document  # noqa: E402
from engines import verify  # noqa: E402
from engines.pdf import geometry  # noqa: E402
from engines.pdf.annotate import apply_annotations  # noqa: E402
from engines.pdf.types import Annotation, Box, Placement  # noqa: E402
from tests import corpus  # noqa: E402

GOAL = 3.0


def _searched(path: Path, word: str) -> dict[int, list[pymupdf.Rect]]:
    with pymupdf.open(path) as doc:
        return {n: doc[n].search_for(word) for n in range(doc.page_count)}


def _boxes(path: Path, rects: dict[int, list[pymupdf.Rect]]) -> list[Placement]:
    placements = []
    with pymupdf.open(path) as doc:
        for number, found in rects.items():
            if found:
                page = doc[number]
                boxes = tuple(
                    geometry.rect_to_box(geometry.page_rect_to_display(page, r))
                    for r in found
                )
                placements.append(
                    Placement(
                        number,
                        Annotation("RedactTextElemType", "b", number, coords=boxes),
                    )
                )
    return placements


def _median(action: Callable[[], object], runs: int) -> float:
    action()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(
    name: str, path: Path, placements: list[Placement], scratch: Path, runs: int
) -> dict[str, Any]:
    out = scratch / f"{name}-engine.pdf"
    theirs = scratch / f"{name}-pymupdf.pdf"
    captured: dict[str, Any] = {}
    real_verify = verify.verify

    def spy(path: str, runs_: Any, areas: Any) -> None:
        captured.update(runs=runs_, areas=areas)
        real_verify(path, runs_, areas)

    def engine() -> None:
        apply_annotations(str(path), str(out), placements, mode="burn")

    def baseline() -> None:
        with pymupdf.open(path) as doc:
            for placement in placements:
                page = doc[placement.page]
                annotation = placement.annotation
                boxes = annotation.coords or (
                    (annotation.position,) if annotation.position else ()
                )
                for box in boxes:
                    page.add_redact_annot(
                        geometry.display_to_page_rect(page, box), fill=(0, 0, 0)
                    )
            for page in doc:
                page.apply_redactions()
            doc.save(str(theirs), garbage=3, deflate=True)

    verify.verify = spy  # type: ignore[assignment]
    try:
        engine()
    finally:
        verify.verify = real_verify
    engine_s = _median(engine, runs)
    baseline_s = _median(baseline, runs)
    check_s = _median(
        lambda: verify.verify(str(out), captured["runs"], captured["areas"]), runs
    )
    with pymupdf.open(path) as doc:
        pages = doc.page_count
    return {
        "input": name,
        "pages": pages,
        "areas": sum(len(p.annotation.coords) or 1 for p in placements),
        "runs_removed": len(captured["runs"]),
        "pymupdf_s": round(baseline_s, 4),
        "engine_s": round(engine_s, 4),
        "check_s": round(check_s, 4),
        "check_ms_per_page": round(1000 * check_s / pages, 1),
        "ratio": round(engine_s / baseline_s, 2),
        "check_share": round(check_s / engine_s, 2),
        "goal": f"<= {GOAL}x",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        statement = scratch / "statement.pdf"
        _redaction_document(statement)
        rows.append(
            measure("statement 10 p", statement, _boxes(statement, _searched(statement, SECRET)),
                    scratch, args.runs)
        )  # fmt: skip
        form = corpus.CORPUS / "prefilled_f1040.pdf"
        if form.exists():
            zone = [
                Placement(
                    0,
                    Annotation("RedactElemType", "b", 0, position=Box(30, 60, 400, 60)),
                )
            ]
            rows.append(measure("form 1040 zone", form, zone, scratch, args.runs))
        paper = corpus.CORPUS / "tracemonkey.pdf"
        if paper.exists():
            found = _searched(paper, "trace")
            rows.append(
                measure(
                    "tracemonkey 'trace'",
                    paper,
                    _boxes(paper, found),
                    scratch,
                    args.runs,
                )
            )
    columns = list(rows[0])
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row[c]) for c in columns))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
