"""7. GET /difference of octave.pdf vs a copy with 20 word edits.

Seconds of the request and the peak RSS of the gunicorn worker that answers it
(its VmHWM, reset before each request), against the engine's text_diff alone in a
fresh interpreter (its own seconds and peak RSS, imports included).
"""

from __future__ import annotations

import time

from bench.bench_compare import measure
from bench.context import Context
from bench.measure import Goal, Row, median, skipped

NUMBER = "7"
SECONDS = Goal("service", "<", 3)
MEGABYTES = Goal("service", "<", 500)


def run(ctx: Context) -> list[Row]:
    if not ctx.inputs.has_octave:
        return [
            skipped(NUMBER, "/difference seconds", "s", SECONDS, "corpus absent"),
            skipped(NUMBER, "/difference peak MB", "MB", MEGABYTES, "corpus absent"),
        ]
    left, right = ctx.inputs.octave(), ctx.inputs.octave_edited()
    left_id, right_id = ctx.upload_once(left), ctx.upload_once(right)
    service_s: list[float] = []
    service_mb: list[float] = []
    baseline_s: list[float] = []
    baseline_mb: list[float] = []
    changes: list[int] = []
    for _ in range(ctx.warmup):  # the files in the page cache
        ctx.client.difference(left_id, right_id)
    for _ in range(ctx.runs):
        with ctx.service.peak_memory() as peak:
            start = time.perf_counter()
            result = ctx.client.difference(left_id, right_id)
            service_s.append(time.perf_counter() - start)
        changes.append(len(result["textChanges"]))
        service_mb.append(peak.peak_mb)
        engine = measure(left, right)
        baseline_s.append(engine["seconds"])
        baseline_mb.append(engine["peak_mb"])
    name = f"/difference {left.name} vs {right.name}"
    notes = {"changes": changes[-1], "engine_changes": engine["changes"]}
    return [
        Row(
            NUMBER,
            name + ", seconds",
            "s",
            median(service_s),
            median(baseline_s),
            SECONDS,
            ctx.runs,
            baseline_label="engine text_diff in a fresh process",
            notes={**notes, "service_s": service_s},
        ),
        Row(
            NUMBER,
            name + ", peak RSS of the web worker",
            "MB",
            median(service_mb),
            median(baseline_mb),
            MEGABYTES,
            ctx.runs,
            baseline_label="peak RSS of a fresh process running text_diff",
            notes={
                "service_mb": service_mb,
                "baseline_mb": baseline_mb,
                "service_max_mb": max(service_mb),
            },
        ),
    ]
