"""Soak: a mixed workload for --minutes, sampling every process's memory.

Run: `.venv/bin/python bench/soak.py [--minutes 60] [--clients 4] [--json FILE]`
(starts the service on DATABASE_URL, else the benchmark's database, as
`make bench` does), or `--base URL --pids PID,PID` against a service already
running (the pids of its gunicorn master and qcluster: their process trees are
sampled).

Each client loops over what users do: upload a PDF, read its layout and a page
image, search it, order a transformation and wait for it, read the result,
then delete the order, its result and the upload (a tenth of the loops keep
theirs, so the database grows as in use). Every `--sample-seconds` the RSS of
each process of the service is read from /proc.

Goal (issue 25): no process grows more than 50 MB after its warm-up. Each
process is judged from its own warmed level: its RSS at the end of the warm-up
(--warmup minutes), or, for a process born later (gunicorn replaces a web worker
after max_requests, django-q2 a cluster process after its tasks), once it has
itself lived --warmup minutes; its growth runs to its last sample. A process
that ends sooner is not judged on its own but by its kind's level (the largest
RSS of its kind at any reading after the warm-up, against the largest during
it: it must not grow more than 50 MB either). Both are printed, per kind.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402
import requests  # noqa: E402

from bench.soak_memory import Sampler, growth  # noqa: E402

GOAL_MB = 50.0
OCTET = {"Content-Type": "application/octet-stream"}


def sample_pdf(pages: int, seed: int) -> bytes:
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page()
        for line in range(30):
            page.insert_text(
                (50, 60 + 20 * line), f"soak {seed} page {n} line {line} word{line}"
            )
    return bytes(doc.tobytes())


# --- the workload ----------------------------------------------------------------


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    loops: int = 0
    answered: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failed: int = 0
    failures: list[str] = field(default_factory=list)  # the first 20

    def count(self, response: requests.Response, expect: int) -> requests.Response:
        """Count `response`; one whose status is not `expect` is a failure."""
        with self.lock:
            self.answered += 1
            code = response.status_code
            self.statuses[code] = self.statuses.get(code, 0) + 1
        if code != expect:
            self.fail(f"{response.request.method} {response.request.url} → {code}")
        return response

    def fail(self, what: str) -> None:
        with self.lock:
            self.failed += 1
            if len(self.failures) < 20:
                self.failures.append(what[:300])


def one_loop(base: str, session: requests.Session, tally: Tally, n: int) -> None:
    def call(
        method: str, path: str, expect: int = 200, **kwargs: Any
    ) -> requests.Response:
        response = session.request(method, base + path, timeout=120, **kwargs)
        return tally.count(response, expect)

    doc = call("POST", "/documents", data=sample_pdf(3, n), headers=OCTET).json()["id"]
    call("GET", f"/documents/{doc}/layout")
    call("GET", f"/documents/{doc}/pages/0/image?width=300")
    call("GET", f"/documents/{doc}/search?searchText=word{n % 30}")
    call("GET", f"/documents/{doc}/pages/0/text/position")
    order = call(
        "POST",
        "/transformations",
        json={
            "format": "pdf",
            "transformationDetails": [
                {"transformationElements": [{"documentId": doc}]}
            ],
        },
    ).json()["transformationOrderId"]["id"]
    final: dict[str, Any] = {}
    for _ in range(12):
        final = call("GET", f"/transformations/{order}?timeoutMs=10000").json()
        if final["currentState"] in ("PROCESSED", "FAILED"):
            break
    result = (final.get("transformationResultDocumentID") or {}).get("id")
    if result:
        call("GET", f"/documents/{result}/file")
    else:
        tally.fail(f"order {order} ended {final.get('currentState')}: {final}")
    call("GET", "/documents/does-not-exist", expect=404)  # as clients make them
    if n % 10:
        call("DELETE", f"/transformations/{order}")
        if result:
            call("DELETE", f"/documents/{result}")
        call("DELETE", f"/documents/{doc}")


def client(base: str, deadline: float, tally: Tally, index: int) -> None:
    session = requests.Session()
    n = index * 1_000_000
    while time.monotonic() < deadline:
        n += 1
        try:
            one_loop(base, session, tally, n)
        except Exception as exc:  # counted, and the soak goes on
            tally.fail(f"loop {n}: {exc!r}")
        with tally.lock:
            tally.loops += 1


def soak(
    base: str,
    roots: dict[int, str],
    *,
    minutes: float,
    warmup: float,
    clients: int,
    sample_seconds: float,
) -> dict[str, Any]:
    tally = Tally()
    started = time.monotonic()
    deadline = started + minutes * 60
    sampler = Sampler(roots, sample_seconds)
    with sampler.running():
        threads = [
            threading.Thread(target=client, args=(base, deadline, tally, i))
            for i in range(clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    grown = growth(sampler.samples, started + warmup * 60, warmup * 60)
    worst = max((p["growth_mb"] for p in grown["processes"]), default=0.0)
    worst_level = max(
        (level["growth_mb"] for level in grown["level_by_kind_mb"].values()),
        default=0.0,
    )
    server_errors = sum(n for code, n in tally.statuses.items() if code >= 500)
    return {  # failures: answers other than expected (an order that did not end)
        "minutes": minutes,
        "warmup_minutes": warmup,
        "clients": clients,
        "loops": tally.loops,
        "requests": tally.answered,
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "server_errors": server_errors,
        "failed": tally.failed,
        "failures": tally.failures,
        "samples": len(sampler.samples),
        **grown,
        "worst_growth_mb": worst,
        "worst_level_growth_mb": worst_level,
        "goal_mb": GOAL_MB,
        "met": max(worst, worst_level) <= GOAL_MB
        and not tally.failed
        and tally.loops > 0,
    }


@contextmanager
def own_service(work: Path) -> Iterator[tuple[str, dict[int, str]]]:
    """The service as `make bench` starts it, on a fresh database."""
    from bench.service import database_url, prepare_database, running_service
    from transformsvc import paths

    url = database_url()
    data = work / "data"
    prepare_database(url, data, flush=True)
    metrics = paths.metrics_root(data)  # the service's own, left in /dev/shm else
    with running_service(db_url=url, data_dir=data, logs=work / "logs") as service:
        procs = service.live.processes
        roots = {procs["web"].pid: "web", procs["worker"].pid: "cluster"}
        try:
            yield service.base, roots
        finally:
            shutil.rmtree(metrics, ignore_errors=True)


def report(result: dict[str, Any]) -> str:
    lines = [
        f"soak: {result['minutes']} min ({result['warmup_minutes']} min warm-up), "
        f"{result['clients']} clients, {result['loops']} loops, "
        f"{result['requests']} requests, 5xx: {result['server_errors']}, "
        f"other failures: {result['failed']}",
    ]
    for kind, mb in sorted(result["largest_growth_by_kind_mb"].items()):
        lines.append(f"  largest growth after warm-up, {kind}: {mb:+.1f} MB")
    for kind, level in sorted(result.get("level_by_kind_mb", {}).items()):
        lines.append(
            f"  level of {kind}: {level['warm_mb']:.1f} → {level['end_mb']:.1f} MB, "
            f"highest {level['peak_mb']:.1f} ({level['growth_mb']:+.1f})"
        )
    young = result.get("unjudged_processes", [])
    if young:
        lines.append(
            f"  {len(young)} processes ended before they had lived a warm-up: "
            "judged by their kind's level"
        )
    lines.append(
        f"  worst growth of a process from its own warmed level "
        f"{result['worst_growth_mb']:+.1f} MB, of a kind's level "
        f"{result.get('worst_level_growth_mb', 0.0):+.1f} MB "
        f"(goal ≤ +{GOAL_MB:.0f} MB): " + ("met" if result["met"] else "NOT MET")
    )
    lines += [f"  failure: {f}" for f in result["failures"][:5]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument(
        "--warmup", type=float, help="minutes (default: a quarter, at most 10)"
    )
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--sample-seconds", type=float, default=5)
    parser.add_argument("--base", help="a running service (with --pids)")
    parser.add_argument("--pids", help="gunicorn master,qcluster main (with --base)")
    parser.add_argument("--work", type=Path, help="folder for data and logs")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    warmup = args.warmup if args.warmup is not None else min(10, args.minutes / 4)
    options = {
        "minutes": args.minutes,
        "warmup": warmup,
        "clients": args.clients,
        "sample_seconds": args.sample_seconds,
    }
    if args.base:
        pids = [int(p) for p in (args.pids or "").split(",") if p]
        roots = dict(zip(pids, ("web", "cluster"), strict=False))
        result = soak(args.base, roots, **options)
    else:
        work = args.work or Path(tempfile.mkdtemp(prefix="transformsvc-soak-"))
        with own_service(work) as (base, roots):
            result = soak(base, roots, **options)
    print(report(result))  # noqa: T201
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
