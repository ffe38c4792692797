"""Benchmark of the OCR engine (engines/ocr): accuracy and speed.

Run: `.venv/bin/python bench/bench_ocr.py [--runs 5] [--json var/bench-ocr.json]`
(standalone; needs the shared corpus beside the checkout, Tesseract with its
eng/fra/deu/spa/ita/por/nld models). Prints three tables:

1. Accuracy: corpus pages (Latin script) and generated dense pages (8 pt text
   in three columns, a 7 pt statistical table) drawn at 300 and 200 dpi, turned
   1.5 or -1 degree, blurred and noised, wrapped as image-only PDFs and OCR'd
   by the engine. Word recall over FACTS.json's distinctive words and over
   every `pdftotext` word of the page (3+ letters), the share of found words
   whose result box overlaps the known box by at least half (intersection over
   union), the page's mean word confidence, whether part of it was read a
   second time (ink the layout left unread), and the engine's seconds.
2. Speed: seconds per page (median of --runs) of the tesseract CLI on the scan's
   PNG (`tesseract page.png - -l eng tsv`) and of the engine on the scanned PDF
   (drawing, Tesseract, text layer, writing the file), both with
   OMP_THREAD_LIMIT=1; pages per minute and the engine / CLI ratio (goal ≤ 1.3).
3. Languages: the CLI with one language against all seven defaults, and the
   engine with its default language detection against all seven at once, on an
   English and a French page.
4. OCRmyPDF (the `bench` extra: `pip install -e '.[bench]'`): pages per minute
   per core and word recall of the engine and of OCRmyPDF on the same scanned
   pages (bench/ocrmypdf_baseline.py). `--skip accuracy,speed,languages` runs it
   alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from bench import ocrmypdf_baseline  # noqa: E402
from engines.ocr import DEFAULT_LANGUAGES, OcrOptions, ocr_pdf  # noqa: E402
from engines.pdf.text import clear_cache  # noqa: E402
from tests import corpus  # noqa: E402
from tests.ocr import accuracy  # noqa: E402
from tests.ocr.scans import (  # noqa: E402
    Scan,
    dense_pdf,
    dense_table_pdf,
    scan_page,
    text_pdf,
)

ACCURACY_PAGES = (
    ("tracemonkey.pdf", 0),
    ("tracemonkey.pdf", 1),
    ("tracemonkey.pdf", 4),
    ("tracemonkey.pdf", 9),
    ("three_columns.pdf", 0),
    ("refcard-a4.pdf", 0),
    ("refcard-a4.pdf", 2),
    ("freeculture.pdf", 32),
    ("freeculture.pdf", 120),
    ("12s0324.pdf", 0),
)
# Generated dense pages: (label, maker); page 0 of what each makes.
DENSE_PAGES = (
    ("generated 8 pt, 3 columns", partial(dense_pdf, columns=3, size=8)),
    ("generated 7 pt, 4 columns", partial(dense_pdf, columns=4, size=7, seed=1)),
    ("generated 7 pt table", dense_table_pdf),
)
SPEED_PAGES = (("tracemonkey.pdf", 0), ("freeculture.pdf", 32), ("refcard-a4.pdf", 0))
DISTORTIONS = {
    300: {"skew": 1.5, "blur": 0.7, "noise": 10},
    200: {"skew": -1.0, "blur": 0.7, "noise": 10},
}
ENV = {**os.environ, "OMP_THREAD_LIMIT": "1"}
FRENCH = (
    "La Commission européenne a présenté mercredi un ensemble de propositions "
    "destinées à renforcer la protection des données personnelles des citoyens. "
    "Selon le texte, les entreprises qui ne respectent pas les nouvelles règles "
    "pourraient être condamnées à des amendes élevées. Les associations de "
    "consommateurs ont salué cette initiative, mais elles estiment que les "
    "contrôles restent insuffisants dans plusieurs pays.",
) * 4


def scan_of(name: str, page: int, dpi: int) -> Scan:
    with pymupdf.open(corpus.CORPUS / name) as doc:
        return scan_page(doc[page], dpi, seed=page, **DISTORTIONS[dpi])


def measure_accuracy(work: Path) -> list[dict[str, Any]]:
    facts = corpus.facts()
    sources = [
        (f"{name} p{page}", corpus.CORPUS / name, page) for name, page in ACCURACY_PAGES
    ]
    for label, make in DENSE_PAGES:
        sources.append((label, make(work / f"{len(sources)}.pdf"), 0))
    rows = []
    for dpi in (300, 200):
        for label, path, page in sources:
            with pymupdf.open(path) as doc:
                scan = scan_page(doc[page], dpi, seed=page, **DISTORTIONS[dpi])
            scanned = scan.pdf(work / "scan.pdf")
            out = work / "ocr.pdf"
            clear_cache()
            started = time.perf_counter()
            report = ocr_pdf(str(scanned), str(out), OcrOptions(languages=("eng",)))
            seconds = time.perf_counter() - started
            name = path.name
            known = accuracy.facts_words(facts, name, page) if name in facts else []
            by_facts = accuracy.score(str(out), 0, scan, known)
            by_words = accuracy.score(
                str(out), 0, scan, accuracy.poppler_words(path, page)
            )
            result = report.pages[0]
            rows.append(
                {
                    "dpi": dpi,
                    "page": label,
                    "facts": (by_facts.found, by_facts.known),
                    "facts_boxes": (by_facts.good_boxes, by_facts.found),
                    "words": (by_words.found, by_words.known),
                    "word_boxes": (by_words.good_boxes, by_words.found),
                    "confidence": result.confidence,
                    "second_look": result.second_look,
                    "seconds": seconds,
                }
            )
    return rows


def cpu_seconds() -> float:
    """CPU time of this process and of its waited-for children (Tesseract)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(command: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    command()
    return time.perf_counter() - wall, cpu_seconds() - cpu


def interleaved(commands: dict[str, Callable[[], object]], runs: int) -> dict[str, Any]:
    """Median wall and CPU seconds of each command, run in turn (the order
    turning each round) so that a busy machine slows them alike."""
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for round_ in range(runs):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu = timed(commands[name])
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {
        name: {
            "wall": statistics.median(walls[name]),
            "cpu": statistics.median(cpus[name]),
        }
        for name in names
    }


def cli(png: Path, languages: str) -> None:
    subprocess.run(
        ["tesseract", str(png), "-", "-l", languages, "tsv"],
        env=ENV,
        check=True,
        capture_output=True,
    )


def engine(pdf: Path, out: Path, options: OcrOptions) -> None:
    ocr_pdf(str(pdf), str(out), options)


def measure_speed(work: Path, runs: int) -> list[dict[str, Any]]:
    rows = []
    english = OcrOptions(languages=("eng",))
    for dpi in (300, 200):
        for name, page in SPEED_PAGES:
            scan = scan_of(name, page, dpi)
            png = work / "page.png"
            png.write_bytes(scan.png())
            pdf = scan.pdf(work / "scan.pdf", image=png.read_bytes())
            out = work / "out.pdf"
            engine(pdf, out, english)  # warm: model files in the page cache
            times = interleaved(
                {
                    "cli": partial(cli, png, "eng"),
                    "engine": partial(engine, pdf, out, english),
                },
                runs,
            )
            rows.append({"dpi": dpi, "page": f"{name} p{page}", **times})
    return rows


def measure_languages(work: Path, runs: int) -> list[dict[str, Any]]:
    rows = []
    french_pdf = text_pdf(work / "fr.pdf", FRENCH)
    with pymupdf.open(french_pdf) as doc:
        french = scan_page(doc[0], 300, noise=6)
    cases = (
        ("English (tracemonkey p0)", scan_of("tracemonkey.pdf", 0, 300), "eng"),
        ("French (generated)", french, "fra"),
    )
    for label, scan, own in cases:
        png = work / "lang.png"
        png.write_bytes(scan.png())
        pdf = scan.pdf(work / "lang.pdf", image=png.read_bytes())
        out = work / "out.pdf"
        everything = "+".join(DEFAULT_LANGUAGES)
        times = interleaved(
            {
                "cli_own": partial(cli, png, own),
                "cli_all": partial(cli, png, everything),
                "engine_detect": partial(engine, pdf, out, OcrOptions()),
                "engine_all": partial(
                    engine, pdf, out, OcrOptions(detect_language=False)
                ),
            },
            runs,
        )
        rows.append({"page": label, **times})
    return rows


def share(pair: tuple[int, int]) -> str:
    found, total = pair
    return f"{found}/{total} ({found / total:.1%})" if total else "-"


def print_tables(result: dict[str, Any]) -> None:
    print("\n## Accuracy (engine, eng; skew/blur/noise as in DISTORTIONS)\n")
    print(
        "| dpi | page | FACTS words found | their boxes ≥ 50 % "
        "| all words found | their boxes ≥ 50 % | confidence | second look | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in result["accuracy"]:
        confidence = row["confidence"]
        print(
            f"| {row['dpi']} | {row['page']} | {share(row['facts'])} | {share(row['facts_boxes'])} "
            f"| {share(row['words'])} | {share(row['word_boxes'])} "
            f"| {'-' if confidence is None else f'{confidence:.1f}'} "
            f"| {'yes' if row['second_look'] else 'no'} | {row['seconds']:.1f} |"
        )
    for dpi in (300, 200):
        rows = [r for r in result["accuracy"] if r["dpi"] == dpi]
        totals = {
            key: (sum(r[key][0] for r in rows), sum(r[key][1] for r in rows))
            for key in ("facts", "facts_boxes", "words", "word_boxes")
        }
        print(
            f"| {dpi} | **all** | {share(totals['facts'])} | {share(totals['facts_boxes'])} "
            f"| {share(totals['words'])} | {share(totals['word_boxes'])} | | | |"
        )
    print(
        "\n## Speed (s/page, medians of interleaved runs; OMP_THREAD_LIMIT=1; "
        "goal engine/CLI ≤ 1.3)\n"
    )
    print(
        "| dpi | page | CLI wall | engine wall | CLI pages/min | engine pages/min "
        "| ratio (wall) | CLI CPU | engine CPU | ratio (CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in result["speed"]:
        tool, ours = row["cli"], row["engine"]
        print(
            f"| {row['dpi']} | {row['page']} | {tool['wall']:.2f} | {ours['wall']:.2f} "
            f"| {60 / tool['wall']:.1f} | {60 / ours['wall']:.1f} "
            f"| {ours['wall'] / tool['wall']:.2f} | {tool['cpu']:.2f} | {ours['cpu']:.2f} "
            f"| {ours['cpu'] / tool['cpu']:.2f} |"
        )
    print("\n## Languages (s/page, medians of interleaved runs: wall / CPU)\n")
    print(
        "| page | CLI, its language | CLI, all 7 | engine, detection (default) "
        "| engine, all 7 |"
    )
    print("|---|---|---|---|---|")
    for row in result["languages"]:
        cells = [
            f"{row[key]['wall']:.2f} / {row[key]['cpu']:.2f}"
            for key in ("cli_own", "cli_all", "engine_detect", "engine_all")
        ]
        print(f"| {row['page']} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=5, help="timed runs per case (median)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--skip",
        default="",
        help="comma-separated: accuracy,speed,languages,ocrmypdf",
    )
    args = parser.parse_args()
    if not corpus.available():
        sys.exit(corpus.ABSENT_REASON)
    skip = set(filter(None, args.skip.split(",")))
    result: dict[str, Any] = {
        "accuracy": [],
        "speed": [],
        "languages": [],
        "ocrmypdf": None,
    }
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if "accuracy" not in skip:
            result["accuracy"] = measure_accuracy(work)
        if "speed" not in skip:
            result["speed"] = measure_speed(work, args.runs)
        if "languages" not in skip:
            result["languages"] = measure_languages(work, args.runs)
        if "ocrmypdf" not in skip:
            result["ocrmypdf"] = ocrmypdf_baseline.measure(work, args.runs, timed)
    print_tables(result)
    if result["ocrmypdf"] is not None:
        ocrmypdf_baseline.print_table(result["ocrmypdf"])
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
