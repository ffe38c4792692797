"""Benchmark: the order operations against the raw engines doing the same work.

Run as `.venv/bin/python bench/bench_ops.py` from the checkout. Rows (medians of
the runs, interleaved with their baseline; goal: ratio <= 1.5):

- stamp 1,000 pages: `apply_operations` with a translucent turned text stamp
  against PyMuPDF's `insert_text` on every page, then the same save;
- Bates on a production of 3 outputs, 2,000 pages: one sequence across the
  outputs, against PyMuPDF's `insert_text` of each label;
- optimize the corpus (object streams, duplicates merged) against
  `qpdf --object-streams=generate`, file by file;
- optimize the corpus with images at 150 dpi, JPEG 75 against Ghostscript's
  `/ebook` preset (which also resamples images to 150 dpi).

Sizes are the outputs' total bytes. `run()` returns the rows as a dict.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymupdf  # noqa: E402

from bench.bench_assemble import make_document  # noqa: E402
from engines.pdf.ops import OpsContext, apply_operations, parse_operations  # noqa: E402

RUNS = 5
GOAL = 1.5
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PRODUCTION = (700, 700, 600)


def _median_pair(
    service: Callable[[], object], baseline: Callable[[], object], runs: int
) -> tuple[float, float]:
    # Interleaved, so a busy neighbour on the machine slows both alike.
    ours: list[float] = []
    theirs: list[float] = []
    service()  # warm caches and imports once
    baseline()
    for _ in range(runs):
        start = time.perf_counter()
        service()
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        baseline()
        theirs.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(theirs)


def _row(
    name: str,
    baseline_name: str,
    times: tuple[float, float],
    sizes: tuple[int, int],
    runs: int,
) -> dict[str, Any]:
    service_s, baseline_s = times
    return {
        "scenario": name,
        "baseline": baseline_name,
        "service_median_s": round(service_s, 3),
        "baseline_median_s": round(baseline_s, 3),
        "ratio": round(service_s / baseline_s, 3),
        "goal": GOAL,
        "runs": runs,
        "service_bytes": sizes[0],
        "baseline_bytes": sizes[1],
    }


def stamp_row(work: str, pages: int, runs: int) -> dict[str, Any]:
    src = os.path.join(work, "stamp-in.pdf")
    make_document(src, "S", pages=pages)
    ours, theirs = (
        os.path.join(work, "stamp-ours.pdf"),
        os.path.join(work, "stamp-raw.pdf"),
    )
    ops = parse_operations(
        [
            {
                "type": "stamp",
                "text": "CONFIDENTIAL",
                "fontSize": 48,
                "opacity": 0.3,
                "rotation": 45,
                "color": {"r": 200, "g": 0, "b": 0},
            }
        ]
    )

    def service() -> None:
        apply_operations(src, ours, ops)

    def baseline() -> None:
        with pymupdf.open(src) as doc:
            for page in doc:
                centre = page.rect.tl + (page.rect.br - page.rect.tl) * 0.5
                page.insert_text(
                    centre - (170, -17),
                    "CONFIDENTIAL",
                    fontsize=48,
                    fontname="hebo",
                    color=(0.78, 0, 0),
                    fill_opacity=0.3,
                    morph=(centre, pymupdf.Matrix(-45)),
                )
            doc.save(theirs, garbage=1, deflate=True)

    times = _median_pair(service, baseline, runs)
    sizes = (os.path.getsize(ours), os.path.getsize(theirs))
    return _row(f"stamp {pages} pages", "PyMuPDF insert_text", times, sizes, runs)


def bates_row(work: str, sizes_in: tuple[int, ...], runs: int) -> dict[str, Any]:
    sources = []
    for n, pages in enumerate(sizes_in):
        path = os.path.join(work, f"bates-in{n}.pdf")
        make_document(path, f"B{n}", pages=pages)
        sources.append(path)
    ops = parse_operations([{"type": "bates", "prefix": "ACME-", "digits": 6}])

    def service() -> None:
        next_number = None
        for n, src in enumerate(sources):
            report = apply_operations(
                src,
                os.path.join(work, f"bates-ours{n}.pdf"),
                ops,
                OpsContext(bates_next=next_number),
            )
            assert report.bates is not None
            next_number = report.bates.last + 1

    def baseline() -> None:
        number = 1
        for n, src in enumerate(sources):
            with pymupdf.open(src) as doc:
                for page in doc:
                    label = f"ACME-{number:06d}"
                    width = pymupdf.get_text_length(label, fontname="helv", fontsize=10)
                    page.insert_text(
                        (page.rect.width - 24 - width, page.rect.height - 24 - 2.5),
                        label,
                        fontsize=10,
                        fontname="helv",
                    )
                    number += 1
                doc.save(
                    os.path.join(work, f"bates-raw{n}.pdf"), garbage=1, deflate=True
                )

    times = _median_pair(service, baseline, runs)
    sizes = tuple(
        sum(
            os.path.getsize(os.path.join(work, f"bates-{who}{n}.pdf")) for n in range(3)
        )
        for who in ("ours", "raw")
    )
    name = f"Bates, 3 outputs, {sum(sizes_in)} pages"
    return _row(name, "PyMuPDF insert_text", times, (sizes[0], sizes[1]), runs)


def corpus_files() -> list[Path]:
    """Corpus PDFs qpdf reads without errors (the fuzzed one is left out)."""
    found = []
    for path in sorted(CORPUS.glob("*.pdf")):
        check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True)
        if check.returncode in (0, 3):
            found.append(path)
    return found


def optimize_row(
    work: str, files: list[Path], runs: int, *, images: bool
) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": "optimize"}
    if images:
        spec |= {"imageDpi": 150, "jpegQuality": 75}
    ops = parse_operations([spec])

    def ours(path: Path) -> str:
        return os.path.join(work, f"opt-ours-{path.name}")

    def theirs(path: Path) -> str:
        return os.path.join(work, f"opt-base-{path.name}")

    def service() -> None:
        for path in files:
            apply_operations(str(path), ours(path), ops)

    def baseline() -> None:
        for path in files:
            if images:
                command = [
                    "gs",
                    "-q",
                    "-sDEVICE=pdfwrite",
                    "-dPDFSETTINGS=/ebook",
                    "-dNOPAUSE",
                    "-dBATCH",
                    f"-sOutputFile={theirs(path)}",
                    str(path),
                ]
            else:
                command = ["qpdf", str(path), "--object-streams=generate", theirs(path)]
            subprocess.run(command, capture_output=True, check=False)

    times = _median_pair(service, baseline, runs)
    sizes = (
        sum(os.path.getsize(ours(p)) for p in files),
        sum(os.path.getsize(theirs(p)) for p in files if os.path.exists(theirs(p))),
    )
    original = sum(p.stat().st_size for p in files)
    if images:
        name, base = (
            f"optimize corpus, images 150 dpi ({len(files)} files)",
            "gs /ebook",
        )
    else:
        name, base = f"optimize corpus ({len(files)} files)", "qpdf --object-streams"
    row = _row(name, base, times, sizes, runs)
    row["original_bytes"] = original
    return row


def run(runs: int = RUNS, smoke: bool = False) -> dict[str, Any]:
    work = tempfile.mkdtemp(prefix="bench-ops-")
    try:
        rows = [
            stamp_row(work, 20 if smoke else 1000, runs),
            bates_row(work, (7, 7, 6) if smoke else PRODUCTION, runs),
        ]
        files = corpus_files() if CORPUS.is_dir() else []
        if files and not smoke:
            rows.append(optimize_row(work, files, runs, images=False))
            if shutil.which("gs"):
                rows.append(optimize_row(work, files, runs, images=True))
        return {"rows": rows}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, no corpus")
    args = parser.parse_args()
    result = run(runs=args.runs, smoke=args.smoke)
    sys.stdout.write(
        f"{'scenario':<46} {'baseline':<22} {'ours s':>8} {'base s':>8} {'ratio':>6} "
        f"{'ours MB':>8} {'base MB':>8}\n"
    )
    for row in result["rows"]:
        sys.stdout.write(
            f"{row['scenario']:<46} {row['baseline']:<22} {row['service_median_s']:>8.3f} "
            f"{row['baseline_median_s']:>8.3f} {row['ratio']:>6.2f} "
            f"{row['service_bytes'] / 1e6:>8.2f} {row['baseline_bytes'] / 1e6:>8.2f}\n"
        )


if __name__ == "__main__":
    main()
