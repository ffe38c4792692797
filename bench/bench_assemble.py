"""Benchmark: assemble() against `qpdf --empty --pages ... -- out.pdf`.

Run as `.venv/bin/python bench/bench_assemble.py` from the checkout. It writes
50 documents of 20 pages (two embedded fonts, a base-14 font, an image shared by
the pages of each document) into a temporary directory, merges them whole with
both tools, interleaved, and prints one row per scenario: the medians of the
runs and the ratio service / baseline (the goal is <= 1.2).

`run()` returns the same figures as a dict, for a bench driver.
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

from engines.pdf.assemble import assemble  # noqa: E402
from engines.pdf.types import SourceElement  # noqa: E402

DOCUMENTS = 50
PAGES = 20
RUNS = 5
GOAL = 1.2
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def make_document(path: str, label: str, pages: int = PAGES) -> None:
    """A report-like PDF: a heading font, a body font, a table font, a logo."""
    doc = pymupdf.open()
    heading = pymupdf.Font("tiro")  # embedded (Nimbus Roman, CFF)
    table = pymupdf.Font("cour")  # embedded (Nimbus Mono)
    logo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 160, 120), False)
    logo.set_rect(logo.irect, (200, 220, 240))
    for y in range(0, 120, 8):
        logo.set_rect(pymupdf.IRect(0, y, 160, y + 4), ((y * 2) % 256, 90, 160))
    logo_xref = 0
    body = f"The quick brown fox of report {label} jumps over the lazy dog. " * 2
    for number in range(1, pages + 1):
        page = doc.new_page()
        page.insert_font(fontname="H", fontbuffer=heading.buffer)
        page.insert_font(fontname="T", fontbuffer=table.buffer)
        page.insert_text(
            (72, 72), f"Report {label}, page {number}", fontname="H", fontsize=18
        )
        lines = [f"{number}.{n} {body[: 90 - n]}" for n in range(32)]
        page.insert_text((72, 110), lines, fontname="helv", fontsize=9)
        rows = [f"{row:>3} {row * 17.25 + number:>10.2f} EUR" for row in range(6)]
        page.insert_text((72, 520), rows, fontname="T", fontsize=9)
        where = pymupdf.Rect(420, 40, 540, 130)
        if logo_xref:
            page.insert_image(where, xref=logo_xref)
        else:
            logo_xref = page.insert_image(where, pixmap=logo)
    doc.save(path, garbage=3, deflate=True)
    doc.close()


def _median_pair(
    service: Callable[[], object], baseline: Callable[[], object], runs: int
) -> tuple[float, float]:
    # Interleaved, so a busy neighbour on the machine slows both alike.
    service_times: list[float] = []
    baseline_times: list[float] = []
    service()  # warm the page cache and imports once
    baseline()
    for _ in range(runs):
        start = time.perf_counter()
        service()
        service_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        baseline()
        baseline_times.append(time.perf_counter() - start)
    return statistics.median(service_times), statistics.median(baseline_times)


def _scenario(
    name: str,
    elements: list[SourceElement],
    qpdf_pages: list[str],
    work: str,
    runs: int,
) -> dict[str, Any]:
    ours = os.path.join(work, f"{name}-service.pdf")
    theirs = os.path.join(work, f"{name}-qpdf.pdf")

    def service() -> None:
        assemble(elements, ours)

    def baseline() -> None:
        # qpdf exits 3 for warnings (some real files have them): still a result.
        done = subprocess.run(
            ["qpdf", "--empty", "--pages", *qpdf_pages, "--", theirs],
            capture_output=True,
            check=False,
        )
        if done.returncode not in (0, 3):
            raise RuntimeError(done.stderr.decode(errors="replace"))

    service_s, baseline_s = _median_pair(service, baseline, runs)
    return {
        "scenario": name,
        "service_median_s": round(service_s, 4),
        "baseline_median_s": round(baseline_s, 4),
        "ratio": round(service_s / baseline_s, 3),
        "goal": GOAL,
        "runs": runs,
        "service_bytes": os.path.getsize(ours),
        "baseline_bytes": os.path.getsize(theirs),
    }


def run(runs: int = RUNS, corpus: bool = False) -> dict[str, Any]:
    """The main scenario (50 x 20 pages merged whole); `rows` lists every scenario."""
    work = tempfile.mkdtemp(prefix="bench-assemble-")
    try:
        paths = []
        for n in range(DOCUMENTS):
            path = os.path.join(work, f"doc{n:02d}.pdf")
            make_document(path, f"D{n}")
            paths.append(path)
        rows = [
            _scenario(
                f"merge {DOCUMENTS}x{PAGES} pages",
                [SourceElement(key=f"d{n}", path=p) for n, p in enumerate(paths)],
                paths,
                work,
                runs,
            )
        ]
        octave = CORPUS / "octave.pdf"
        if corpus and octave.is_file():
            rows.append(
                _scenario(
                    "octave.pdf whole (1158 pages, 9k links)",
                    [SourceElement(key="octave", path=str(octave))],
                    [str(octave)],
                    work,
                    runs,
                )
            )
        result = dict(rows[0])
        result["rows"] = rows
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument(
        "--corpus",
        action="store_true",
        help="also merge the corpus's octave.pdf (link-heavy)",
    )
    args = parser.parse_args()
    result = run(runs=args.runs, corpus=args.corpus)
    header = f"{'scenario':<42} {'service s':>10} {'qpdf s':>10} {'ratio':>7}"
    sys.stdout.write(header + "\n")
    for row in result["rows"]:
        sys.stdout.write(
            f"{row['scenario']:<42} {row['service_median_s']:>10.4f} "
            f"{row['baseline_median_s']:>10.4f} {row['ratio']:>7.3f}\n"
        )


if __name__ == "__main__":
    main()
