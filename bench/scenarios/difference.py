"""7. GET /difference of a long manual vs a copy with 20 word edits.

Two documents: a 2,415-page manual (octave.pdf twice and its first 99 pages) and
octave.pdf (1,158 pages), each against a copy with 20 words replaced on pages
spread over it; the manual first, on a service that has compared nothing yet.
For each: seconds of the request; the memory the whole service (every process
of gunicorn and the qcluster, LibreOffice included) takes above its level
before the first request, over the warm-up and the timed requests (the sum of
each process's peak RSS, reset at the start, less their RSS then: an upper
bound); the peak RSS of the web workers. Baseline: the engine's text_diff alone
in a fresh interpreter (its own seconds and peak RSS, imports included). A last
row sets the time per page of the manual against octave's: cost linear in pages
reads as a ratio near 1."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bench.bench_compare import measure
from bench.context import Context, page_count
from bench.measure import Goal, Row, median, skipped

NUMBER = "7"
SECONDS = Goal("service", "<", 2)
ABOVE_IDLE_MB = Goal("service", "<", 400)
LINEAR = Goal("ratio", "<=", 1.25)


def run(ctx: Context) -> list[Row]:
    if not ctx.inputs.has_octave:
        return [
            skipped(NUMBER, "/difference seconds", "s", SECONDS, "corpus absent"),
            skipped(NUMBER, "/difference MB", "MB", ABOVE_IDLE_MB, "corpus absent"),
        ]
    manual = _measure(ctx, ctx.inputs.manual(), ctx.inputs.manual_edited())
    octave = _measure(ctx, ctx.inputs.octave(), ctx.inputs.octave_edited())
    name = f"/difference, {manual['pages']:,}-page manual vs 20 edits"
    return [
        Row(
            NUMBER,
            name + ", seconds",
            "s",
            median(manual["service_s"]),
            median(manual["baseline_s"]),
            SECONDS,
            ctx.runs,
            baseline_label="engine text_diff in a fresh process",
            notes={"changes": manual["changes"], "service_s": manual["service_s"]},
        ),
        Row(
            NUMBER,
            name + ", whole service above idle",
            "MB",
            manual["growth_mb"],
            None,
            ABOVE_IDLE_MB,
            ctx.runs,
            notes={
                "idle_mb": manual["idle_mb"],
                "web_worker_peak_mb": manual["worker_mb"],
                "engine_alone_peak_mb": median(manual["baseline_mb"]),
            },
        ),
        Row(
            NUMBER,
            f"/difference, {octave['pages']:,}-page octave.pdf vs 20 edits, seconds",
            "s",
            median(octave["service_s"]),
            median(octave["baseline_s"]),
            None,
            ctx.runs,
            baseline_label="engine text_diff in a fresh process",
            notes={
                "changes": octave["changes"],
                "growth_mb": octave["growth_mb"],
                "web_worker_peak_mb": octave["worker_mb"],
            },
        ),
        Row(
            NUMBER,
            "/difference ms per page: the manual vs octave.pdf",
            "ms/page",
            median(manual["service_s"]) * 1000 / manual["pages"],
            median(octave["service_s"]) * 1000 / octave["pages"],
            LINEAR,
            ctx.runs,
            baseline_label="octave.pdf's ms per page",
        ),
    ]


def _measure(ctx: Context, left: Path, right: Path) -> dict[str, Any]:
    """Seconds and memory of `ctx.runs` requests after `ctx.warmup` ones. The
    whole service's growth spans them all, from its level before the first
    request: memory a process took stays in it (the allocator keeps it), so a
    level read after a warm-up would hide what the first request took."""
    left_id, right_id = ctx.upload_once(left), ctx.upload_once(right)
    out: dict[str, Any] = {"pages": page_count(left)}
    for key in ("service_s", "baseline_s", "baseline_mb"):
        out[key] = []
    with ctx.service.tree_growth() as grown:
        for _ in range(ctx.warmup):  # the files in the page cache
            ctx.client.difference(left_id, right_id)
        for _ in range(ctx.runs):
            start = time.perf_counter()
            result = ctx.client.difference(left_id, right_id)
            out["service_s"].append(time.perf_counter() - start)
            changes = len(result["textChanges"])
            engine = measure(left, right)
            out["baseline_s"].append(engine["seconds"])
            out["baseline_mb"].append(engine["peak_mb"])
            if changes != engine["changes"]:
                raise AssertionError(
                    f"the service found {changes} changes, "
                    f"the engine {engine['changes']}"
                )
    out["changes"] = changes
    out["growth_mb"], out["idle_mb"] = grown.growth_mb, grown.idle_mb
    out["worker_mb"] = grown.peak_mb(ctx.service.live.web_workers())
    return out
