"""`make bench`: the service against raw tools, scenario by scenario.

Starts the service as in production (gunicorn gthread + `manage.py qcluster` with
2 workers + the OCR queue's qcluster with 1) on PostgreSQL — DATABASE_URL, else
postgres://postgres@127.0.0.1:5432/transformsvc_bench, created when missing and
migrated — with a fresh data directory under var/bench, and drives it over HTTP
from 127.0.0.1. Each scenario is timed against a baseline (PyMuPDF or qpdf doing
the same work in-process) in the same run, interleaved, medians of the runs.
Scenario 8 runs once with the database broker and once with Redis (the service
restarted in between). Scenario 10 has no baseline of its own: it is the
original rendition server's published viewing workload at fixed arrival rates
(bench/scenarios/viewing.py), set against the original's documents/s per vCPU.
Scenario 11 converts a Word file through the service against a warm unoserver
call and a cold soffice process, then counts conversions per minute with 10
concurrent clients (bench/scenarios/office.py).

Prints the table (scenario, service median, baseline median, ratio, goal,
pass/fail) and writes it as JSON to var/bench.json.

    .venv/bin/python bench/run.py [--runs 5] [--only 2,8,10] [--smoke]

`--smoke` runs every scenario once on tiny generated inputs (no corpus), for the
test suite. A database whose name contains "bench" is emptied first (it belongs
to the benchmark); any other is only migrated.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path[0] == str(ROOT / "bench"):
    sys.path.pop(0)  # run as a script: bench's own modules are imported as bench.*
sys.path.insert(0, str(ROOT))

from bench import service as svc  # noqa: E402
from bench.client import Client  # noqa: E402
from bench.context import Context, log, warm_up  # noqa: E402
from bench.inputs import Inputs  # noqa: E402
from bench.measure import Row, skipped, table  # noqa: E402
from bench.scenarios import annotations as burn_annotations  # noqa: E402
from bench.scenarios import (  # noqa: E402
    difference,
    large_upload,
    merge,
    office,
    page_search,
    redaction,
    select_pages,
    throughput,
    upload_layout,
    viewing,
)
from tests.live import redis_server  # noqa: E402

Scenario = Callable[[Context], list[Row]]
# Run order (the table is sorted by number): the large upload first, on web
# workers fresh from start-up, as its goal is their peak RSS; the viewing workload
# (minutes of load at fixed rates) before the throughput rounds, which come last,
# right before the service restarts on Redis.
SCENARIOS: list[tuple[str, Scenario]] = [
    ("9", large_upload.run),
    ("1", upload_layout.run),
    ("2", page_search.run),
    ("3", select_pages.run),
    ("4", merge.run),
    ("5", redaction.run),
    ("6", burn_annotations.run),
    ("7", difference.run),
    ("11", office.run),
    ("10", viewing.run),
    ("8", throughput.run),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="timed runs per scenario (default 5, 1 with --smoke)",
    )
    parser.add_argument("--only", default="", help="comma-separated scenario numbers")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny inputs, one run each"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "var" / "bench",
        help="inputs, data directory and logs (default var/bench)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=ROOT / "var" / "bench.json",
        help="where the table goes as JSON (default var/bench.json)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when a goal is missed (always 2 when a scenario fails)",
    )
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.smoke else 5)
    wanted = {n.strip() for n in args.only.split(",") if n.strip()}
    chosen = [(n, fn) for n, fn in SCENARIOS if not wanted or n in wanted]

    started = time.time()
    rows, failures = _run_all(args.work, chosen, runs=runs, smoke=args.smoke)
    rows.sort(key=lambda row: int(row.number))
    sys.stdout.write(table(rows) + "\n")
    report = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "seconds": round(time.time() - started, 1),
        "smoke": args.smoke,
        "runs": runs,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "database": _without_password(svc.database_url()),
        "rows": [row.as_json() for row in rows],
        "failures": failures,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    log(f"done in {report['seconds']} s; table written to {args.json}")
    if failures:
        return 2
    if args.strict and any(row.passed is False for row in rows):
        return 1
    return 0


def _run_all(
    work: Path, chosen: list[tuple[str, Scenario]], *, runs: int, smoke: bool
) -> tuple[list[Row], list[str]]:
    data, logs = work / "data", work / "logs"
    for fresh in (data, logs):
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
    inputs = Inputs(work / "inputs" / ("smoke" if smoke else "full"), smoke=smoke)
    db_url = svc.database_url()
    log(f"database {_without_password(db_url)}: create if missing, migrate")
    svc.prepare_database(db_url, data, flush="bench" in svc.database_name(db_url))

    rows: list[Row] = []
    failures: list[str] = []
    # The database outlives a restart of the service: its uploads stay valid.
    uploaded: dict[Path, str] = {}

    def with_service(
        redis_url: str | None, scenarios: list[tuple[str, Scenario]]
    ) -> None:
        with svc.running_service(
            db_url=db_url, data_dir=data, logs=logs, redis_url=redis_url
        ) as service:
            log(f"service up at {service.base} ({service.broker} broker)")
            client = Client(service.base)
            ctx = Context(
                service=service,
                client=client,
                inputs=inputs,
                scratch=work / "scratch",
                runs=runs,
                smoke=smoke,
                uploaded=uploaded,
            )
            try:
                warm_up(ctx)
                for number, scenario in scenarios:
                    log(f"scenario {number} ({service.broker} broker)")
                    try:
                        rows.extend(scenario(ctx))
                    except Exception as exc:
                        failures.append(f"scenario {number}: {exc!r}")
                        log(f"scenario {number} failed:\n{traceback.format_exc()}")
                        rows.append(
                            skipped(
                                number, f"scenario {number}", "-", None, f"error: {exc}"
                            )
                        )
            finally:
                client.close()

    with_service(None, chosen)
    if any(number == "8" for number, _ in chosen):
        with redis_server(logs, svc.DEFAULT_REDIS_URL) as redis_url:
            if redis_url is None:
                rows.extend(throughput.skipped_rows("redis", "no Redis server"))
            else:
                log(f"restarting the service on Redis ({redis_url})")
                try:
                    with_service(redis_url, [("8", throughput.run)])
                except svc.BenchError as exc:
                    failures.append(f"scenario 8 on Redis: {exc}")
                    rows.extend(throughput.skipped_rows("redis", f"error: {exc}"))
    return rows, failures


def _without_password(url: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


if __name__ == "__main__":
    sys.exit(main())
