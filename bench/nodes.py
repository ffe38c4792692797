"""Scaling out, measured: small orders per second with one node and with two.

Each node is what a host runs (gunicorn 2 x 40 threads and a qcluster with 2
workers) with its own data directory; all nodes share PostgreSQL, Redis (the
broker) and an S3-compatible store (moto's server). 20 client threads, spread
over the nodes, post a small order, long-poll it to PROCESSED and download it,
100 orders a round; orders/s = orders / wall time, median of the rounds. One
node on its local disk is measured too, to tell the store's cost from the
nodes' gain.

    python -m bench.nodes [--runs 5] [--clients 20] [--orders 100]

Not part of `make bench`: it needs Redis and starts up to four services.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pymupdf

from bench.client import Client, element, order_body
from bench.measure import concurrently
from bench.service import database_url, prepare_database, service_env
from tests.live import LiveService, free_port, redis_server, running, s3_server


def small_pdf() -> bytes:
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 100), f"page {n + 1}", fontsize=14)
    return doc.tobytes()


def round_rate(
    bases: list[str], body: dict[str, Any], clients: int, orders: int
) -> float:
    tickets = iter(range(orders))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def loop(base: str) -> None:
        client = Client(base)
        try:
            while True:
                with lock:
                    n = next(tickets, None)
                if n is None:
                    return
                client.run_order(body)
        except BaseException as exc:
            errors.append(exc)
        finally:
            client.close()

    elapsed = concurrently(lambda n: loop(bases[n % len(bases)]), clients)
    if errors:
        raise errors[0]
    return orders / elapsed


def measure(
    name: str, nodes: int, shared: dict[str, str], work: Path, args: Any
) -> list[float]:
    with ExitStack() as stack:
        services: list[LiveService] = []
        for n in range(nodes):
            data = work / f"{name.replace(' ', '-')}-{n}"
            env = {
                **service_env(shared["DATABASE_URL"], data, shared["REDIS_URL"]),
                **shared,
                "TRANSFORMSVC_DATA_DIR": str(data),
                "TRANSFORMSVC_METRICS_DIR": str(data / "metrics"),
                "PORT": str(free_port()),
                "WEB_WORKERS": "2",
                "WEB_THREADS": "40",
                "ACCESS_LOG": "/dev/null",
            }
            services.append(stack.enter_context(running(env, data, web_workers=2)))
        doc_id = Client(services[0].base).upload(small_pdf())
        body = order_body([element(doc_id, [(3, 3), (1, 2)])])
        bases = [service.base for service in services]
        round_rate(bases, body, args.clients, 20)  # warm-up: caches, connections
        return [
            round_rate(bases, body, args.clients, args.orders) for _ in range(args.runs)
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--orders", type=int, default=100)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-nodes-"))
    db_url = database_url()
    prepare_database(db_url, work / "migrate", flush=True)
    with redis_server(work / "redis") as redis_url, s3_server(work / "s3") as store:
        if redis_url is None:
            raise SystemExit("no Redis: set REDIS_URL or install redis-server")
        shared = {
            **store.env(),
            "DATABASE_URL": db_url,
            "REDIS_URL": redis_url,
            "Q_CLUSTER_NAME": f"bench-{uuid.uuid4().hex[:8]}",
            "LOG_LEVEL": "WARNING",
        }
        local = {
            key: value
            for key, value in shared.items()
            if not key.startswith(("AWS_", "TRANSFORMSVC_STORAGE"))
        }
        configs = [
            ("1 node, local disk", 1, local),
            ("1 node, S3", 1, shared),
            ("2 nodes, S3", 2, shared),
        ]
        results = {name: measure(name, n, env, work, args) for name, n, env in configs}
    print(f"{args.clients} clients, {args.orders} small orders a round, Redis broker")
    for name, rates in results.items():
        print(
            f"{name:20} median {statistics.median(rates):6.1f} orders/s  "
            f"(rounds: {', '.join(f'{r:.1f}' for r in rates)})"
        )


if __name__ == "__main__":
    main()
