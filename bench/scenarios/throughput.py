"""8. Orders per second and queue latency, with the database broker and with Redis.

Throughput: 20 client threads (each its own keep-alive session) post small orders
(3 pages picked from a 3-page document), long-poll each to PROCESSED and download
it, until a round's orders are done; orders/s = orders / wall time of the round,
median over the rounds. Baseline: the engine's assemble() of the same order in
this process, one after the other (one process; the service has 2 workers).

Queue latency: the order's queuedTime (QUEUED → PROCESSING, ms). The goal is the
broker's pick-up delay, so it is measured on an idle service, one order at a
time; under the 20-client load orders also wait behind each other (reported too,
without a goal).
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Any

from bench.client import Client, element, order_body
from bench.context import Context
from bench.measure import (
    Goal,
    Row,
    concurrently,
    median,
    percentile,
    skipped,
    timed,
)
from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement

NUMBER = "8"
THROUGHPUT = Goal("service", ">=", 10)
LATENCY = {"database": Goal("service", "<", 100), "redis": Goal("service", "<", 20)}
SELECTION = [(3, 3), (1, 2)]


def run(ctx: Context) -> list[Row]:
    broker = ctx.service.broker
    paths = [ctx.inputs.small(n) for n in range(4)]
    ids = [ctx.upload_once(path) for path in paths]
    bodies = [order_body([element(doc_id, SELECTION)]) for doc_id in ids]

    idle = _idle_latencies(ctx, bodies, ctx.many(30, 4))
    clients, per_round = (4, 8) if ctx.smoke else (20, 100)
    rounds = [_round(ctx, bodies, clients, per_round) for _ in range(ctx.runs)]
    loaded = [ms for _, latencies in rounds for ms in latencies]
    rates = [rate for rate, _ in rounds]
    engine_rate = _engine_rate(ctx, paths)

    where = f"({broker} broker)"
    return [
        Row(
            NUMBER,
            f"throughput, {clients} clients, small orders {where}",
            "orders/s",
            median(rates),
            engine_rate,
            THROUGHPUT,
            ctx.runs,
            baseline_label="engine assemble() of the same order, one process",
            notes={"rates": rates, "orders_per_round": per_round},
        ),
        Row(
            NUMBER,
            f"queue latency median, idle {where}",
            "ms",
            median(idle),
            None,
            LATENCY[broker],
            len(idle),
            notes={"queued_ms": idle},
        ),
        Row(
            NUMBER,
            f"queue latency p95, idle {where}",
            "ms",
            percentile(idle, 95),
            None,
            None,
            len(idle),
        ),
        Row(
            NUMBER,
            f"queue latency median, {clients} clients {where}",
            "ms",
            median(loaded),
            None,
            None,
            len(loaded),
        ),
        Row(
            NUMBER,
            f"queue latency p95, {clients} clients {where}",
            "ms",
            percentile(loaded, 95),
            None,
            None,
            len(loaded),
        ),
    ]


def skipped_rows(broker: str, reason: str) -> list[Row]:
    where = f"({broker} broker)"
    return [
        skipped(
            NUMBER, f"throughput, small orders {where}", "orders/s", THROUGHPUT, reason
        ),
        skipped(
            NUMBER, f"queue latency median, idle {where}", "ms", LATENCY[broker], reason
        ),
    ]


def _idle_latencies(
    ctx: Context, bodies: list[dict[str, Any]], count: int
) -> list[float]:
    latencies = []
    for n in range(count):
        order = ctx.client.run_order(bodies[n % len(bodies)])
        latencies.append(float(order["queuedTime"]))
        # Varied pauses: the next order finds the broker idle at a varied moment
        # (waiting on NOTIFY, or on Redis's blocking pop).
        time.sleep(0.03 + 0.011 * (n % 7))
    return latencies


def _round(
    ctx: Context, bodies: list[dict[str, Any]], clients: int, orders: int
) -> tuple[float, list[float]]:
    """(orders per second, queuedTime of each order) of one round."""
    tickets = iter(range(orders))
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[BaseException] = []

    def client_loop(_: int) -> None:
        client = Client(ctx.client.base)
        try:
            while True:
                with lock:
                    n = next(tickets, None)
                if n is None:
                    return
                order = client.run_order(bodies[n % len(bodies)])
                with lock:
                    latencies.append(float(order["queuedTime"]))
        except BaseException as exc:  # reported by the round, not lost in a thread
            errors.append(exc)
        finally:
            client.close()

    elapsed = concurrently(client_loop, clients)
    if errors:
        raise errors[0]
    return orders / elapsed, latencies


def _engine_rate(ctx: Context, paths: list[Any]) -> float:
    dest = ctx.out("throughput-engine.pdf")
    ranges = tuple(PageRange(a, b) for a, b in SELECTION)
    seconds = [
        timed(
            functools.partial(
                assemble,
                [SourceElement(key="small", path=str(p), ranges=ranges)],
                str(dest),
            )
        )
        for p in paths * (1 if ctx.smoke else 5)
    ]
    return 1 / median(seconds)
