"""1. Upload + layout of octave.pdf over HTTP vs PyMuPDF reading every page size."""

from __future__ import annotations

import pymupdf

from bench.context import Context, page_count
from bench.measure import Goal, Row, interleaved, median, skipped

NUMBER = "1"
# The upload refuses damaged page trees and decompression bombs before it answers
# (qpdf reads the page tree, Flate streams are inflated and counted): work the
# baseline does not do. At most twice the engine (issue 30).
GOAL = Goal("ratio", "<=", 2)


def run(ctx: Context) -> list[Row]:
    if not ctx.inputs.has_octave:
        return [
            skipped(
                NUMBER,
                "upload + layout of octave.pdf",
                "s",
                GOAL,
                "corpus absent",
            )
        ]
    path = ctx.inputs.octave()
    pages = page_count(path)
    uploaded: list[str] = []

    def service() -> None:
        doc_id = ctx.client.upload(path, title="octave")
        layout = ctx.client.layout(doc_id)
        assert len(layout["pageDimensionsList"]) == pages, layout
        uploaded.append(doc_id)

    def baseline() -> None:
        with pymupdf.open(path) as doc:
            sizes = [(page.rect.width, page.rect.height, page.rotation) for page in doc]
        assert len(sizes) == pages

    service_s, baseline_s = interleaved(service, baseline, ctx.runs, ctx.warmup)
    for doc_id in uploaded:
        ctx.client.delete(doc_id)
    return [
        Row(
            NUMBER,
            f"upload + layout, {path.name} ({pages} pages)",
            "s",
            median(service_s),
            median(baseline_s),
            GOAL,
            ctx.runs,
            baseline_label="PyMuPDF open + every page's size in-process",
            notes={
                "service_s": service_s,
                "baseline_s": baseline_s,
                "bytes": path.stat().st_size,
            },
        )
    ]
