"""A benchmark stopped with SIGTERM (`kill`, `timeout`) stops the service it
started: no gunicorn or qcluster is left holding the database and a port."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.live import ROOT, database_url

SCRIPT = """
import json, os, sys, time
from pathlib import Path
from bench.service import running_service
work = Path(sys.argv[1])
with running_service(db_url=sys.argv[2], data_dir=work / "data", logs=work) as svc:
    pids = [p.pid for p in svc.live.processes.values()] + svc.live.web_workers()
    print(json.dumps(pids), flush=True)
    time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for every purpose but its exit status.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][:1] != "Z"


def _children(pid: int) -> list[int]:
    found = subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False
    )
    return [int(p) for p in found.stdout.split()]


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_sigterm_to_a_benchmark_stops_its_service(tmp_path: Path) -> None:
    bench = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(tmp_path), database_url()],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert bench.stdout is not None
    line = bench.stdout.readline()
    assert line, bench.stderr.read() if bench.stderr else ""
    pids = json.loads(line)
    assert len(pids) >= 3 and all(_alive(pid) for pid in pids)
    left: list[int] = pids
    try:
        bench.send_signal(signal.SIGTERM)
        assert bench.wait(timeout=30) != 0
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [pid for pid in pids if _alive(pid)]
        assert not left, "left running"
    finally:  # what a failure left behind goes, with the qclusters' workers
        for pid in left:
            for child in _children(pid) + [pid]:
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
