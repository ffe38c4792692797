"""`make bench` in miniature: the driver runs every scenario once on tiny inputs."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live import ROOT, database_url


def _smoke_database() -> str:
    # Its own database on the test server: the driver empties databases named
    # "*bench*" before it starts, and the test database must stay as it is.
    # Named after this checkout too: worktrees of other branches share the server,
    # and a database migrated by another branch cannot be flushed by this one.
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    parts = urlsplit(database_url())
    return urlunsplit(parts._replace(path=f"/transformsvc_bench_smoke_{checkout}"))


def _redis_reachable() -> bool:
    import shutil

    from bench.service import DEFAULT_REDIS_URL
    from tests.live import redis_answers

    return redis_answers(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL) or bool(
        shutil.which("redis-server")
    )


@pytest.mark.cluster
def test_bench_smoke_produces_every_row_with_numbers(tmp_path: Path) -> None:
    report_path = tmp_path / "bench.json"
    env = {**os.environ, "DATABASE_URL": _smoke_database()}
    done = subprocess.run(
        [
            sys.executable,
            "bench/run.py",
            "--smoke",
            "--work",
            str(tmp_path / "work"),
            "--json",
            str(report_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    report = json.loads(report_path.read_text())
    rows = report["rows"]
    assert report["failures"] == []
    assert {row["number"] for row in rows} == {str(n) for n in range(1, 10)}
    with_redis = _redis_reachable()
    for row in rows:
        if row["skipped"] == "no Redis server" and not with_redis:
            continue
        assert row["skipped"] is None, row
        assert isinstance(row["service_median"], float | int), row
        # Queue latencies are whole milliseconds and may be 0 on Redis.
        assert row["service_median"] > 0 or row["unit"] == "ms", row
        if row["baseline"]:
            assert row["baseline_median"] > 0 and row["ratio"] > 0, row
        if row["goal"]:
            assert row["pass"] in (True, False), row
    brokers = {
        row["scenario"].rsplit("(", 1)[-1] for row in rows if row["number"] == "8"
    }
    assert brokers == {"database broker)", "redis broker)"} or not with_redis
    # The printed table carries every row, in order.
    table_lines = [line for line in done.stdout.splitlines() if line[:1].isdigit()]
    assert [line.split()[0] for line in table_lines] == [row["number"] for row in rows]
