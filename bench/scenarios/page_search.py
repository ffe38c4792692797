"""2. Search on one page of octave.pdf over HTTP vs PyMuPDF on the open document.

Two rows: the same page searched again and again (page index 999, as a viewer
does while the user types), and a different page each run (nothing cached in the
web process: each request extracts its page, like the baseline always does).
"""

from __future__ import annotations

import functools

import pymupdf

from bench.context import Context
from bench.inputs import pick_word
from bench.measure import (
    Goal,
    Row,
    interleaved,
    median,
    skipped,
    timed,
)

NUMBER = "2"
# A cold search extracts the page's per-character geometry (MuPDF's rawdict,
# several times the baseline's `search_for` alone) on top of the request:
# at most four times the engine (issue 30).
GOAL = Goal("ratio", "<=", 4)
# A warm search over HTTP, where one request alone (GET /health) is 1.5x the
# engine's search: at most twice the engine.
WARM_GOAL = Goal("ratio", "<=", 2)


def run(ctx: Context) -> list[Row]:
    if not ctx.inputs.has_octave:
        return [skipped(NUMBER, "search on one page", "s", WARM_GOAL, "corpus absent")]
    path = ctx.inputs.octave()
    doc_id = ctx.upload_once(path)
    index = 20 if ctx.smoke else 999
    runs = ctx.many(30, 3)
    with pymupdf.open(path) as doc:
        word = pick_word(doc[index])
        counts: dict[str, int] = {}

        def service() -> None:
            counts["service"] = len(ctx.client.search(doc_id, index, word))

        def baseline() -> None:
            counts["baseline"] = len(doc[index].search_for(word))

        service_s, baseline_s = interleaved(
            service, baseline, runs, warmup=3 * ctx.warmup
        )
        rows = [
            Row(
                NUMBER,
                f"search page {index} of {path.name} ('{word}'), repeated",
                "s",
                median(service_s),
                median(baseline_s),
                WARM_GOAL,
                runs,
                baseline_label="PyMuPDF page.search_for on the open document",
                notes={"matches": counts, **_context(ctx, doc, index, runs)},
            )
        ]
        rows.append(_cold_pages(ctx, doc, doc_id, index, runs))
    return rows


def _context(
    ctx: Context, doc: pymupdf.Document, index: int, runs: int
) -> dict[str, float]:
    """What the figures compare with: the HTTP floor of the service (GET /health,
    one database query) and heavier in-process extractions of the same page."""
    health = [timed(ctx.client.health) for _ in range(runs)]
    words = [timed(lambda: doc[index].get_text("words")) for _ in range(runs)]
    raw = [timed(lambda: doc[index].get_text("rawdict")) for _ in range(runs)]
    return {
        "http_floor_health_s": median(health),
        "pymupdf_words_s": median(words),
        "pymupdf_rawdict_s": median(raw),
    }


def _cold_pages(
    ctx: Context, doc: pymupdf.Document, doc_id: str, first: int, runs: int
) -> Row:
    targets: list[tuple[int, str]] = []
    page = first + 1
    while len(targets) < runs and page < doc.page_count:
        try:
            targets.append((page, pick_word(doc[page])))
        except ValueError:  # a page without text: nothing to search for
            pass
        page += 1
    service_s: list[float] = []
    baseline_s: list[float] = []
    for number, word in targets:
        s, b = interleaved(
            functools.partial(ctx.client.search, doc_id, number, word),
            functools.partial(doc[number].search_for, word),
            1,
            warmup=0,
        )
        service_s += s
        baseline_s += b
    last = targets[-1][0] if targets else first
    return Row(
        NUMBER,
        f"search pages {first + 1}-{last}, each once (cold)",
        "s",
        median(service_s),
        median(baseline_s),
        GOAL,
        len(targets),
        baseline_label="PyMuPDF page.search_for on the open document",
    )
