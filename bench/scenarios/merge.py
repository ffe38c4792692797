"""4. Merge 50 documents of 20 pages end to end vs `qpdf --empty --pages ... --`."""

from __future__ import annotations

from typing import Any

from bench.client import element, order_body
from bench.context import Context, page_count
from bench.measure import Goal, Row, interleaved, median, order_breakdown
from bench.scenarios.select_pages import qpdf

NUMBER = "4"
GOAL = Goal("ratio", "<=", 1.2)


def run(ctx: Context) -> list[Row]:
    count, pages = (3, 4) if ctx.smoke else (50, 20)
    parts = ctx.inputs.merge_parts(count, pages)
    ids = [ctx.upload_once(part) for part in parts]
    body = order_body([element(doc_id) for doc_id in ids])
    ours, theirs = ctx.out("merge-service.pdf"), ctx.out("merge-qpdf.pdf")

    orders: list[dict[str, Any]] = []
    service_s, baseline_s = interleaved(
        lambda: orders.append(ctx.client.run_order(body, ours)),
        lambda: qpdf(["--empty", "--pages", *map(str, parts), "--", str(theirs)]),
        ctx.runs,
        warmup=ctx.warmup,
    )
    assert page_count(ours) == page_count(theirs) == count * pages
    return [
        Row(
            NUMBER,
            f"merge {count} x {pages}-page documents",
            "s",
            median(service_s),
            median(baseline_s),
            GOAL,
            ctx.runs,
            baseline_label="qpdf --empty --pages ... --",
            notes={
                "order": order_breakdown(orders[-ctx.runs :]),
                "service_bytes": ours.stat().st_size,
                "baseline_bytes": theirs.stat().st_size,
            },
        )
    ]
