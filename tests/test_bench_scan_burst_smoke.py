"""bench/bench_scan_burst.py in miniature: PDF users viewing a small PDF, alone
then while two scans are uploaded at once; both scans become searchable, and
every kind of request of both runs is timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.bench_scan_burst import P95_GOAL_MS
from tests.live import ROOT
from tests.test_bench_smoke import _smoke_database

KINDS = {
    "upload",
    "layout",
    "bookmarks",
    "thumbnail",
    "image",
    "text/position",
    "delete",
}


@pytest.mark.cluster
def test_the_scan_burst_bench_times_both_runs_and_waits_for_every_scan(
    tmp_path: Path,
) -> None:
    report = tmp_path / "burst.json"
    done = subprocess.run(
        [
            sys.executable,
            "bench/bench_scan_burst.py",
            *("--smoke", "--scans", "2", "--rate", "0.5", "--duration", "4"),
            *("--searchable-within", "120", "--work", str(tmp_path / "work")),
            *("--json", str(report)),
        ],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": _smoke_database()},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert report.exists(), done.stdout + done.stderr[-4000:]
    result = json.loads(report.read_text())
    for run in ("alone", "during_burst"):
        assert result[run]["errors"] == 0, result[run]
        assert set(result[run]["kinds"]) == KINDS, result[run]
        assert all(kind["n"] > 0 for kind in result[run]["kinds"].values())
    assert result["scan_upload_s"]["max"] > 0
    # Both scans were recognised: their third page finds a word of the letter.
    assert result["all_searchable_after_s"] is not None, done.stdout
    met = result["during_burst"]["p95"] <= P95_GOAL_MS
    assert done.returncode == (0 if met else 1), done.stdout + done.stderr[-2000:]
    assert ("goal met" if met else "goal NOT met") in done.stdout


def test_make_bench_runs_the_scan_burst() -> None:
    """The README's "in `make bench`": the script is in the bench's loop of extras."""
    script = (ROOT / "transformsvc/scripts/bench.sh").read_text()
    loop = script[script.index("for extra in") : script.index("done")]
    assert "bench/bench_scan_burst.py" in loop.split()
