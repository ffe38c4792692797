"""The OCR cluster lowers its session's CPU share only when it leads that
session: under autogroup scheduling a process's nice weighs only within its
session, and a session shared with the web server (`make run`) must not slow.

A session started before autogroups (the init's, where a CI runner may live)
belongs to the root group, whose `/proc/self/autogroup` is empty; the probe
reports it as "root"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/autogroup").exists(),
    reason="this kernel has no autogroup scheduling (/proc/self/autogroup)",
)

_PROBE = (
    "import sys; from jobs.queues import lower_session_priority as lower; "
    "lowered = lower(10); "
    "group = open('/proc/self/autogroup').read().split(); "
    "print(lowered, group[-1] if group else 'root')"
)


def _probe(*, own_session: bool) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        check=True,
        start_new_session=own_session,
        cwd=Path(__file__).resolve().parents[2],
    )
    lowered, nice = done.stdout.split()
    return lowered, nice


def test_a_cluster_leading_its_session_lowers_the_session() -> None:
    assert _probe(own_session=True) == ("True", "10")


def test_a_cluster_sharing_its_session_leaves_it_alone() -> None:
    before = Path("/proc/self/autogroup").read_text()
    lowered, _ = _probe(own_session=False)
    assert lowered == "False"
    assert Path("/proc/self/autogroup").read_text() == before
