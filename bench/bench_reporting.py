"""Reporting at scale: the dashboard's queries, the README's five report queries
and the admin's list pages, timed on a generated history of a million orders.

    .venv/bin/python bench/bench_reporting.py [--orders 1000000] [--runs 5]
        [--database transformsvc_bench_reporting] [--reuse] [--json var/bench_reporting.json]

The database (on DATABASE_URL's server, else 127.0.0.1:5432) is dropped, created,
migrated and filled with `bench.reporting_data` (generate_series, about two minutes
for a million orders), then VACUUM ANALYZE, as autovacuum leaves a live table.
`--reuse` keeps a database already filled with as many orders. Every figure is the
median of `--runs` runs after one warm-up, in milliseconds; goals: the dashboard and
each report query under 200 ms, each list page under 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if sys.path[0] == str(ROOT / "bench"):
    sys.path.pop(0)  # run as a script: bench's own modules are imported as bench.*
sys.path.insert(0, str(ROOT))

from bench import reporting_data  # noqa: E402

DASHBOARD_GOAL_MS = 200
QUERY_GOAL_MS = 200
LIST_GOAL_MS = 300


def log(message: str) -> None:
    print(f"[bench-reporting {time.strftime('%H:%M:%S')}] {message}", flush=True)


def server_url(database: str) -> str:
    given = (
        os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    )
    return urlunsplit(urlsplit(given)._replace(path=f"/{database}"))


def readme_queries() -> list[str]:
    """The SQL blocks of the README's Reporting section, as written."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Reporting", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sql\n(.*?)```", section, flags=re.S)


def order_count(url: str) -> int:
    import psycopg

    try:
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM orders_transformationorder)"
                " + (SELECT count(*) FROM comparisons_comparisonorder)"
            ).fetchone()
    except psycopg.Error:
        return 0
    return int(row[0]) if row else 0


def recreate(url: str, orders: int) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    log(f"migrating {name}")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    with psycopg.connect(url, autocommit=True) as conn:
        for what, sql in reporting_data.statements(orders):
            started = time.monotonic()
            conn.execute(sql)
            log(f"generated {what} in {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        conn.execute("VACUUM ANALYZE")
        log(f"VACUUM ANALYZE in {time.monotonic() - started:.1f} s")


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    fn()  # warm-up: plans cached, pages in shared buffers, as on a live server
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(runs: int) -> list[dict[str, Any]]:
    """Time every row in this process, Django configured on the bench database."""
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from jobs.dashboard import queries

    rows: list[dict[str, Any]] = []

    def row(group: str, name: str, goal: float, fn: Callable[[], Any]) -> None:
        ms = median_ms(fn, runs)
        rows.append({"group": group, "name": name, "ms": round(ms, 1), "goal_ms": goal})
        log(f"{group:10} {name:58} {ms:8.1f} ms")

    from jobs.dashboard import rollup
    from jobs.models import DaySummary
    from jobs.registry import kinds

    today = timezone.now().date()
    first = today - timedelta(days=29)
    since = timezone.now() - timedelta(days=30)

    def cold() -> Any:
        DaySummary.objects.all().delete()
        return queries.window(first, today)

    row("dashboard", "30 days, no day summary stored yet (made once)", 0, cold)
    row(
        "dashboard",
        "30 days of day summaries, today live",
        DASHBOARD_GOAL_MS,
        lambda: queries.window(first, today),
    )
    win = queries.window(first, today)
    start = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    row(
        "dashboard",
        "  of which: today summarised live",
        DASHBOARD_GOAL_MS,
        lambda: [
            rollup.summarise(k, start, start + timedelta(days=1)) for k in kinds()
        ],
    )
    row(
        "dashboard",
        "  p50/p95 by kind and format (histograms)",
        DASHBOARD_GOAL_MS,
        lambda: queries.times(win),
    )
    row(
        "dashboard",
        "  top error categories, busiest owners",
        DASHBOARD_GOAL_MS,
        lambda: (queries.error_categories(win), queries.busiest_owners(win)),
    )
    row(
        "dashboard",
        "  refusals by reason",
        DASHBOARD_GOAL_MS,
        lambda: queries.refusals(since),
    )
    row(
        "dashboard",
        "  right now (queued, processing, failed 24 h)",
        DASHBOARD_GOAL_MS,
        queries.right_now,
    )

    def run_sql(sql: str) -> Callable[[], Any]:
        def go() -> Any:
            with connection.cursor() as cursor:
                cursor.execute(sql)
                return cursor.fetchall()

        return go

    for n, sql in enumerate(readme_queries(), 1):
        title = sql.strip().splitlines()[0].lstrip("- ").strip()
        row("readme", f"query {n}: {title}"[:58], QUERY_GOAL_MS, run_sql(sql))

    user = get_user_model().objects.filter(username="bench-admin").first()
    if user is None:
        user = get_user_model().objects.create_superuser("bench-admin", "", "bench")
    client = Client()
    client.force_login(user)
    document = connection.cursor()
    document.execute(
        "SELECT document_id FROM jobs_orderinput ORDER BY queued_at DESC LIMIT 1"
    )
    found = document.fetchone()
    doc_id = found[0] if found else "doc-1"

    def page(path: str) -> Callable[[], Any]:
        def go() -> Any:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            return response

        return go

    row(
        "page",
        "dashboard, 30 days (every query and the charts)",
        DASHBOARD_GOAL_MS,
        page("/admin/dashboard/?days=30"),
    )
    page("/admin/dashboard/?days=90")()  # makes the 60 older days' summaries, once
    row(
        "page",
        "dashboard, 90 days",
        DASHBOARD_GOAL_MS,
        page("/admin/dashboard/?days=90"),
    )
    orders = "/admin/orders/transformationorder/"
    document.execute("SELECT count(*) FROM orders_transformationorder")
    total = document.fetchone()
    deep = max(1, min(200, (total[0] if total else 0) // 100))
    for name, path in (
        ("transformation orders", orders),
        ("  filtered: failed", orders + "?state__exact=FAILED"),
        (
            "  filtered: redaction, failed",
            orders + "?operation=redaction&state__exact=FAILED",
        ),
        ("  searched: an input document id", orders + f"?q={doc_id}"),
        ("  deleted orders", orders + "?deleted=yes"),
        (f"  page {deep}", orders + f"?p={deep}"),
        ("comparison orders", "/admin/comparisons/comparisonorder/"),
        ("documents", "/admin/documents/document/"),
    ):
        row("page", name, LIST_GOAL_MS, page(path))

    def old_counts() -> Any:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT state, count(*) FROM orders_transformationorder GROUP BY 1"
            )
            return cursor.fetchall()

    row("before", "the old list's per-state counts of every row", 0, old_counts)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", default="transformsvc_bench_reporting")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument(
        "--json", type=Path, default=ROOT / "var" / "bench_reporting.json"
    )
    args = parser.parse_args(argv)
    url = server_url(args.database)
    if not (args.reuse and order_count(url) == args.orders):
        log(f"generating {args.orders:,} orders into {args.database}")
        recreate(url, args.orders)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "transformsvc.settings"
    os.environ.setdefault(
        "TRANSFORMSVC_DATA_DIR", str(ROOT / "var" / "bench-reporting")
    )
    rows = measure(args.runs)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"orders": args.orders, "runs": args.runs, "rows": rows}, indent=2)
    )
    print(f"\n{'':10} {'':58} {'median':>9} {'goal':>7}")
    for r in rows:
        mark = "ok" if r["ms"] <= r["goal_ms"] else "OVER"
        mark = mark if r["goal_ms"] else "(no goal)"
        print(
            f"{r['group']:10} {r['name']:58} {r['ms']:7.1f} ms {r['goal_ms']:5} ms {mark}"
        )
    over = [r for r in rows if r["goal_ms"] and r["ms"] > r["goal_ms"]]
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
