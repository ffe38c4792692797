"""bench/bench_reporting.py in miniature: 10,000 generated orders, one run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg

from tests.live import ROOT, database_url


def test_bench_reporting_generates_a_history_and_times_every_row(
    tmp_path: Path,
) -> None:
    name = f"transformsvc_bench_reporting_smoke_{os.getpid()}"
    report = tmp_path / "report.json"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "TRANSFORMSVC_DATA_DIR": str(tmp_path),
    }
    try:
        done = subprocess.run(
            [
                sys.executable,
                "bench/bench_reporting.py",
                "--orders",
                "10000",
                "--runs",
                "1",
                "--database",
                name,
                "--json",
                str(report),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
        rows = json.loads(report.read_text())["rows"]
    finally:
        admin = database_url().rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    groups = {r["group"] for r in rows}
    assert groups == {"dashboard", "readme", "page", "before"}
    assert len([r for r in rows if r["group"] == "readme"]) == 5
    assert all(r["ms"] > 0 for r in rows)
