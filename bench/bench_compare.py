"""Benchmark of the comparison engine's text diff on the real-world corpus.

Run: `.venv/bin/python bench/bench_compare.py` (prints one JSON object).
Each case runs in its own subprocess so that its peak memory (ru_maxrss) is its
own; it includes the interpreter, PyMuPDF, numpy and pikepdf, whose share is
reported as `import_only_peak_mb`.

Cases:
- `octave_20_edits`: octave.pdf (1,158 pages) vs a copy where 20 words on pages
  spread over the document were redacted and replaced by other words; the other
  pages are untouched (what an editing tool's save produces). The new words are
  drawn at the end of their page's content stream, so each edit reads as a
  DELETE in place plus an ADD at the end of the page: 40 changes.
- `octave_20_edits_rewritten`: the same copy saved with every content stream
  rewritten, so no page is byte-identical and every page is extracted and
  diffed word by word (the worst case for a near-identical document).
- `unrelated_200_pages`: the first 200 pages of octave.pdf vs the first 200 pages
  of freeculture.pdf.
- `pixels_200_pages`: pixel_compare of those two at 96 dpi (not a text diff; shows
  that memory stays flat over many pages).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from tests.corpus import CORPUS  # noqa: E402

EDITS = 20


def make_edited_copy(
    source: Path, dest: Path, *, edits: int = EDITS, rewrite: bool = False
) -> list[tuple[int, str, str]]:
    """Replace one word on each of `edits` pages spread over `source`.

    Returns (0-based page, old word, new word) per edit.
    """
    done: list[tuple[int, str, str]] = []
    with pymupdf.open(source) as doc:
        step = doc.page_count // edits
        for n in range(edits):
            page = doc[n * step + step // 2]
            word = _pick_word(page)
            if word is None:
                continue
            rect = pymupdf.Rect(word[:4])
            new = f"edited{n}"
            # Shrink vertically so neighbouring lines are not touched.
            page.add_redact_annot(
                rect + (0.5, rect.height * 0.2, -0.5, -rect.height * 0.2)
            )
            page.apply_redactions(
                images=pymupdf.PDF_REDACT_IMAGE_NONE,
                graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            )
            page.insert_text(
                (rect.x0, rect.y1 - rect.height * 0.25), new, fontsize=rect.height * 0.7
            )
            done.append((page.number, word[4], new))
        doc.save(dest, clean=rewrite, garbage=3 if rewrite else 0)
    return done


def _pick_word(page: pymupdf.Page) -> tuple[Any, ...] | None:
    words = page.get_text("words", sort=False)
    for word in words[len(words) // 2 :]:
        if len(word[4]) >= 6 and word[4].isalpha():
            return word
    return None


def first_pages(source: Path, dest: Path, count: int) -> None:
    with pymupdf.open(source) as doc, pymupdf.open() as out:
        out.insert_pdf(doc, from_page=0, to_page=count - 1)
        out.save(dest, garbage=3, deflate=True)


def measure(left: Path, right: Path) -> dict[str, Any]:
    """text_diff(left, right) in a fresh interpreter: seconds, peak MB, changes."""
    code = (
        "import json, resource, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from engines.pdf.compare import text_diff\n"
        "start = time.perf_counter()\n"
        "changes = text_diff(sys.argv[1], sys.argv[2])\n"
        "seconds = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "kinds = {}\n"
        "for c in changes: kinds[c.change_type] = kinds.get(c.change_type, 0) + 1\n"
        "json.dump({'seconds': round(seconds, 3), 'peak_mb': round(peak, 1),\n"
        "           'changes': len(changes), 'kinds': kinds}, sys.stdout)\n"
    )
    return _child(code, left, right)


def measure_pixels(left: Path, right: Path, dest: Path) -> dict[str, Any]:
    """pixel_compare(left, right) at 96 dpi in a fresh interpreter."""
    code = (
        "import json, resource, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from engines.pdf.compare import pixel_compare\n"
        "from engines.pdf.types import CompareStyle\n"
        "start = time.perf_counter()\n"
        "pages = pixel_compare(sys.argv[1], sys.argv[2], sys.argv[3], CompareStyle())\n"
        "seconds = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "json.dump({'seconds': round(seconds, 3), 'peak_mb': round(peak, 1),\n"
        "           'pages': pages}, sys.stdout)\n"
    )
    result = _child(code, left, right, dest)
    result["output_mb"] = round(dest.stat().st_size / 2**20, 1)
    return result


def _child(code: str, *args: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(done.stdout))


def baseline_mb() -> float:
    """Peak memory of an interpreter that only imports the engine."""
    code = (
        f"import resource, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "import engines.pdf.compare\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    )
    return round(float(done.stdout), 1)


def run() -> dict[str, Any]:
    octave = CORPUS / "octave.pdf"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        start = time.perf_counter()
        edits = make_edited_copy(octave, work / "octave-edited.pdf")
        make_edited_copy(octave, work / "octave-rewritten.pdf", rewrite=True)
        first_pages(octave, work / "octave-200.pdf", 200)
        first_pages(CORPUS / "freeculture.pdf", work / "freeculture-200.pdf", 200)
        setup = time.perf_counter() - start
        return {
            "setup_seconds": round(setup, 1),
            "import_only_peak_mb": baseline_mb(),
            "edits": len(edits),
            "octave_20_edits": measure(octave, work / "octave-edited.pdf"),
            "octave_20_edits_rewritten": measure(octave, work / "octave-rewritten.pdf"),
            "unrelated_200_pages": measure(
                work / "octave-200.pdf", work / "freeculture-200.pdf"
            ),
            "pixels_200_pages": measure_pixels(
                work / "octave-200.pdf",
                work / "freeculture-200.pdf",
                work / "pixels.pdf",
            ),
        }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
