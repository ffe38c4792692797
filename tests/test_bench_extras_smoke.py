"""bench/soak.py and bench/fuzz.py in miniature, on one live service: a few
seconds of the soak's workload with every process of the service sampled, then
a hundred generated and hostile requests; no 5xx, nothing but expected answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.live import ROOT, live_service


def _run(script: str, *args: str, report: Path) -> tuple[dict[str, Any], str]:
    done = subprocess.run(
        [sys.executable, script, *args, "--json", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert report.exists(), done.stdout + done.stderr[-3000:]
    return json.loads(report.read_text()), done.stdout


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_the_soak_and_the_fuzzer_run_against_a_live_service(tmp_path: Path) -> None:
    with live_service(tmp_path / "live") as service:
        pids = f"{service.processes['web'].pid},{service.processes['worker'].pid}"
        soak, soak_out = _run(
            "bench/soak.py",
            *("--base", service.base, "--pids", pids, "--clients", "2"),
            *("--minutes", "0.07", "--warmup", "0.02", "--sample-seconds", "0.5"),
            report=tmp_path / "soak.json",
        )
        fuzz, fuzz_out = _run(
            "bench/fuzz.py",
            *("--base", service.base, "--requests", "30", "--operations", "8"),
            report=tmp_path / "fuzz.json",
        )

    assert soak["loops"] >= 2, soak
    assert soak["server_errors"] == 0 and soak["failed"] == 0, soak["failures"]
    kinds = soak["largest_growth_by_kind_mb"]
    assert {"web main", "web worker", "cluster main", "cluster process"} <= set(kinds)
    assert "worst" in soak_out, soak_out

    assert fuzz["requests"] >= 30, fuzz
    assert fuzz["server_errors"] == 0, fuzz["examples"]
    assert {"400", "404"} <= set(fuzz["statuses"]), fuzz["statuses"]
    assert "met" in fuzz_out, fuzz_out
