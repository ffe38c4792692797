"""bench_ocr's comparison with OCRmyPDF: the same scanned pages, one document
given to each, pages per minute per core and word recall.

Both read English only and use one core: the engine as the service calls it
(its default resolution, a scan read at 200 dpi at most; its second look at ink
left unread), OCRmyPDF 17 through its Python API with `jobs=1` in threads, no
optimisation of the output (`optimize=0`, `output_type="pdf"`: the PDF/A
conversion and image recompression are not recognition). CPU seconds are this
process's and its waited-for children's (Tesseract), so a core's share is
counted whatever the machine's load; medians of interleaved runs. Recall is the
share of the page's own words (pdftotext, 3+ letters) that the engine's search
finds on each output, with a box on the scanned word (tests/ocr/accuracy.py).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf

from engines.ocr import OcrOptions, ocr_pdf
from engines.pdf.text import clear_cache
from tests import corpus
from tests.ocr import accuracy
from tests.ocr.scans import Scan, scan_page

# Pages of the shared corpus: a paper, a book page, a dense reference card, a
# two-column paper page.
PAGES = (
    ("tracemonkey.pdf", 0),
    ("freeculture.pdf", 32),
    ("refcard-a4.pdf", 0),
    ("tracemonkey.pdf", 4),
)
SCAN = {"dpi": 300, "skew": 1.5, "blur": 0.7, "noise": 10}  # a 300 dpi office scan


def scans() -> list[tuple[str, int, Scan]]:
    made = []
    for name, page in PAGES:
        with pymupdf.open(corpus.CORPUS / name) as doc:
            made.append((name, page, scan_page(doc[page], seed=page, **SCAN)))
    return made


def scanned_document(made: list[tuple[str, int, Scan]], path: Path) -> Path:
    """The scans as one image-only PDF, a page each."""
    doc = pymupdf.open()
    for _, _, scan in made:
        width, height = scan.size
        page = doc.new_page(width=width, height=height)
        page.insert_image(page.rect, stream=scan.png())
    doc.save(path, deflate=True)
    return path


def engine(src: Path, out: Path) -> None:
    ocr_pdf(str(src), str(out), OcrOptions(languages=("eng",)))


def ocrmypdf(src: Path, out: Path) -> None:
    import ocrmypdf as tool

    tool.ocr(
        src,
        out,
        language=["eng"],
        jobs=1,
        use_threads=True,
        output_type="pdf",
        optimize=0,
        progress_bar=False,
    )


def recall(out: Path, made: list[tuple[str, int, Scan]]) -> tuple[int, int, int]:
    """(found, with a good box, known) over every page."""
    clear_cache()
    found = good = known = 0
    for index, (name, page, scan) in enumerate(made):
        score = accuracy.score(
            str(out), index, scan, accuracy.poppler_words(corpus.CORPUS / name, page)
        )
        found, good, known = (
            found + score.found,
            good + score.good_boxes,
            known + score.known,
        )
    return found, good, known


def measure(
    work: Path, runs: int, timed: Callable[[Callable[[], object]], tuple[float, float]]
) -> dict[str, Any]:
    made = scans()
    src = scanned_document(made, work / "scans.pdf")
    ways = {"engine": engine, "ocrmypdf": ocrmypdf}
    outputs = {name: work / f"{name}.pdf" for name in ways}
    for name, way in ways.items():  # warm: models and imports loaded once
        way(src, outputs[name])
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    wall: dict[str, list[float]] = {name: [] for name in ways}
    names = list(ways)
    for round_ in range(runs):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            seconds, cpu_seconds = timed(lambda: ways[name](src, outputs[name]))  # noqa: B023
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
    pages = len(made)
    return {
        "pages": [f"{name} p{page}" for name, page, _ in made],
        "runs": runs,
        **{
            name: {
                "cpu_per_page": statistics.median(cpu[name]) / pages,
                "wall_per_page": statistics.median(wall[name]) / pages,
                "cpu_runs": cpu[name],
                "recall": recall(outputs[name], made),
            }
            for name in ways
        },
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def print_table(row: dict[str, Any]) -> None:
    print(
        f"\n## Engine against OCRmyPDF ({len(row['pages'])} pages, one document, "
        f"medians of {row['runs']}; eng, one core)\n"
    )
    print(
        "| way | CPU s/page | pages/min per core | wall s/page | words found "
        "| boxes ≥ 50 % |"
    )
    print("|---|---|---|---|---|---|")
    for name in ("engine", "ocrmypdf"):
        it = row[name]
        found, good, known = it["recall"]
        print(
            f"| {name} | {it['cpu_per_page']:.2f} | {60 / it['cpu_per_page']:.1f} "
            f"| {it['wall_per_page']:.2f} | {found}/{known} ({found / known:.1%}) "
            f"| {good}/{found} ({good / max(found, 1):.1%}) |"
        )
    ratio = row["ocrmypdf"]["cpu_per_page"] / row["engine"]["cpu_per_page"]
    print(f"\nEngine pages/min per core ÷ OCRmyPDF's: {ratio:.2f} (goal ≥ 1.5)")
