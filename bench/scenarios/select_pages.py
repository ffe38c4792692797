"""3. 100 scattered pages of octave.pdf: order, long poll, download vs `qpdf --pages`."""

from __future__ import annotations

import random
import subprocess
from typing import Any

from bench.client import element, order_body
from bench.context import Context, page_count
from bench.measure import (
    CLOSE_TO_ENGINE,
    Row,
    interleaved,
    median,
    order_breakdown,
    skipped,
)

NUMBER = "3"


def qpdf(args: list[str]) -> None:
    done = subprocess.run(["qpdf", *args], capture_output=True, check=False)
    # qpdf exits 3 for warnings (some real files have them): still a result.
    if done.returncode not in (0, 3):
        raise RuntimeError(done.stderr.decode(errors="replace"))


def run(ctx: Context) -> list[Row]:
    if not ctx.inputs.has_octave:
        return [
            skipped(
                NUMBER, "select scattered pages", "s", CLOSE_TO_ENGINE, "corpus absent"
            )
        ]
    path = ctx.inputs.octave()
    total = page_count(path)
    count = 10 if ctx.smoke else 100
    pages = random.Random(total).sample(range(1, total + 1), count)
    doc_id = ctx.upload_once(path)
    body = order_body([element(doc_id, [(p, p) for p in pages])])
    ours, theirs = ctx.out("select-service.pdf"), ctx.out("select-qpdf.pdf")

    orders: list[dict[str, Any]] = []
    service_s, baseline_s = interleaved(
        lambda: orders.append(ctx.client.run_order(body, ours)),
        lambda: qpdf(
            [
                "--empty",
                "--pages",
                str(path),
                ",".join(map(str, pages)),
                "--",
                str(theirs),
            ]
        ),
        ctx.runs,
        warmup=ctx.warmup,
    )
    assert page_count(ours) == page_count(theirs) == count
    return [
        Row(
            NUMBER,
            f"select {count} scattered pages of {path.name}",
            "s",
            median(service_s),
            median(baseline_s),
            CLOSE_TO_ENGINE,
            ctx.runs,
            baseline_label="qpdf --empty --pages",
            notes={
                "order": order_breakdown(orders[-ctx.runs :]),
                "service_bytes": ours.stat().st_size,
                "baseline_bytes": theirs.stat().st_size,
            },
        )
    ]
