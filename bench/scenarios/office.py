"""11. Office → PDF through the service vs LibreOffice driven directly.

Service: a ~100 KB Word file (text, a table, a picture; 17 pages) is uploaded over
HTTP, its layout read (the call waits until a worker's warm LibreOffice pool has
made the rendition) and the PDF downloaded: what a client does to get a PDF from
a Word file. Each run uploads the file anew; nothing is cached between uploads.

Baselines, interleaved with the service in the same run:
- a warm unoserver call: unoserver's own server, started once, and its client
  converting the same file (with unoserver's defaults, and with update_index off,
  which is what the service's pool does; the stricter of the two is the row's);
- a cold `soffice --headless --convert-to pdf`: a new process per document, its
  profile already made (what most deployments do).

Then 10 concurrent clients, each uploading ~100 KB Word files and waiting for
their layout, for conversions per minute through the whole service (2 workers,
so 2 LibreOffice instances, on this 2-core machine); no failure allowed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.client import Client
from bench.context import Context
from bench.measure import Goal, Row, concurrently, median, timed

NUMBER = "11"
# The goals: within 1.2x a warm unoserver call, at least 3x faster than a
# cold soffice, at least 50 conversions a minute with 10 clients on 2 cores.
WARM_GOAL = Goal("ratio", "<=", 1.2)
COLD_GOAL = Goal("ratio", "<=", 1 / 3)
RATE_GOAL = Goal("service", ">=", 50)
CLIENTS = 10
# The published figure of a well-known Office-conversion service on 2 CPUs.
PUBLISHED_RATE = 25.0


def run(ctx: Context) -> list[Row]:
    from bench.bench_convert import cold_converter, unoserver_client

    work = ctx.out("office")
    work.mkdir(parents=True, exist_ok=True)
    source = ctx.inputs.word()
    pages: list[int] = []
    conversions: list[dict[str, Any]] = []

    def service() -> None:
        doc_id = ctx.client.upload(source, title="report")
        layout = ctx.client.layout(doc_id)
        pages.append(len(layout["pageDimensionsList"]))
        ctx.client.download(doc_id, work / "service.pdf")
        for ref in ctx.client.call("GET", f"/documents/{quote(doc_id)}/conversions"):
            conversions.append(
                ctx.client.call("GET", f"/conversions/{quote(ref['id'], safe='')}")
            )
        ctx.client.delete(doc_id)

    cold = cold_converter(work, new_profile=False)
    times: dict[str, list[float]] = {
        "service": [],
        "default": [],
        "no_index": [],
        "cold": [],
    }
    with unoserver_client(work) as uno:
        out = str(work / "unoserver.pdf")
        calls = {
            "service": service,
            "default": lambda: uno.convert(inpath=str(source), outpath=out),
            "no_index": lambda: uno.convert(
                inpath=str(source), outpath=out, update_index=False
            ),
            "cold": lambda: cold(source),
        }
        for _ in range(ctx.warmup):
            for call in calls.values():
                call()
        for _ in range(ctx.runs):
            for name, call in calls.items():
                times[name].append(timed(call))
    if min(pages) < 2:
        raise AssertionError(f"the Word file was laid out on {pages} pages")

    ours = median(times["service"])
    warm = {name: median(times[name]) for name in ("default", "no_index")}
    strict = min(warm, key=lambda name: warm[name])
    breakdown = _breakdown(conversions[-ctx.runs :])
    label = source.stat().st_size // 1024
    rows = [
        Row(
            NUMBER,
            f"Office → PDF, {label} KB Word file, vs warm unoserver",
            "s",
            ours,
            warm[strict],
            WARM_GOAL,
            ctx.runs,
            baseline_label=(
                "unoserver's client on a warm unoserver server"
                + (", update_index off" if strict == "no_index" else "")
            ),
            notes={
                "service_s": times["service"],
                "unoserver_default_s": warm["default"],
                "unoserver_no_index_s": warm["no_index"],
                "pages": pages[-1],
                "conversion": breakdown,
            },
        ),
        Row(
            NUMBER,
            f"Office → PDF, {label} KB Word file, vs cold soffice",
            "s",
            ours,
            median(times["cold"]),
            COLD_GOAL,
            ctx.runs,
            baseline_label="soffice --headless --convert-to pdf, a process per file",
            notes={"cold_s": times["cold"]},
        ),
    ]
    rows.append(_rate(ctx, source))
    return rows


def _breakdown(conversions: list[dict[str, Any]]) -> dict[str, float]:
    """Medians of the rendition orders' own queued and processing times (ms)."""
    if not conversions:
        return {}
    return {
        "queued_ms": median([float(c["queuedTime"]) for c in conversions]),
        "processing_ms": median([float(c["processingTime"]) for c in conversions]),
    }


def _rate(ctx: Context, source: Path) -> Row:
    """CLIENTS threads upload and wait for layouts until `total` conversions are
    done: conversions per minute, the median of the rounds."""
    total = 6 if ctx.smoke else 60
    clients = 3 if ctx.smoke else CLIENTS
    rounds = 1 if ctx.smoke else ctx.runs
    rates: list[float] = []
    failures: list[str] = []
    for _ in range(rounds):
        seconds = _round(ctx, source, total, clients, failures)
        rates.append(total / seconds * 60)
    if failures:
        raise AssertionError(
            f"{len(failures)} of {total * rounds} conversions failed: {failures[:3]}"
        )
    return Row(
        NUMBER,
        f"Office → PDF, {clients} concurrent clients, conversions/min",
        "/min",
        median(rates),
        PUBLISHED_RATE,
        RATE_GOAL,
        rounds,
        baseline_label="a published Office-conversion service on 2 CPUs",
        notes={
            "rates_per_min": [round(rate, 1) for rate in rates],
            "conversions_per_round": total,
        },
    )


def _round(
    ctx: Context, source: Path, total: int, clients: int, failures: list[str]
) -> float:
    remaining = list(range(total))
    lock = threading.Lock()
    made: list[str] = []

    def client(_: int) -> None:
        own = Client(ctx.service.base)
        try:
            while True:
                with lock:
                    if not remaining:
                        return
                    remaining.pop()
                try:
                    doc_id = own.upload(source, title="report")
                    if not own.layout(doc_id)["pageDimensionsList"]:
                        raise AssertionError(f"{doc_id} has no pages")
                    made.append(doc_id)
                except Exception as exc:  # counted: the goal is no failure
                    failures.append(repr(exc)[:300])
        finally:
            own.close()

    seconds = concurrently(client, clients)
    for doc_id in made:
        ctx.client.delete(doc_id)
    return seconds
