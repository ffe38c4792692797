"""The metrics files across the life of processes: those of ended processes are
folded into totals (the folder stays bounded, the counters stay the sum), and a
metrics write on a full or limited file system neither raises nor kills.

Each process here is a real Python process in prometheus-client's multiprocess
mode (the mode is chosen at import, so not this test process)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import multiprocess

from tests.disks import fill, small_disk
from tests.live import ROOT
from transformsvc import metrics_fold

# A process of the service, in miniature: counts requests (one series per label,
# 1,000 of them: past the first 64 KiB of its file) and times them, holds a live
# gauge, then exits.
RECORD = """
import os, sys
os.environ["PROMETHEUS_MULTIPROC_DIR"] = sys.argv[1]
if sys.argv[3] == "guarded":
    from transformsvc import metrics_guard
    metrics_guard.install()
from prometheus_client import Counter, Gauge, Histogram
requests = Counter("t_requests", "requests", ["route"])
took = Histogram("t_seconds", "time", buckets=(0.1, 1))
busy = Gauge("t_busy", "busy", multiprocess_mode="livesum")
busy.set(1)
for n in range(int(sys.argv[2])):
    requests.labels(f"route-{n % 1000}").inc()
    took.observe(0.5)
print("counted", sum(requests.labels(f"route-{n}")._value.get() for n in range(1000)))
"""


def record(folder: Path, n: int, mode: str = "guarded", **kw: Any) -> Any:
    return subprocess.run(
        [sys.executable, "-c", RECORD, str(folder), str(n), mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        **kw,
    )


def scraped(folder: Path) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    files = [str(p) for p in folder.glob("*.db")]
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for metric in multiprocess.MultiProcessCollector.merge(files)
        for s in metric.samples
    }


def test_ended_processes_are_folded_the_folder_stays_bounded_and_sums_hold(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "web"
    folder.mkdir()
    for round_ in range(1, 9):  # eight processes, one after another
        done = record(folder, 10 * round_)
        assert done.returncode == 0, done.stderr
        metrics_fold.fold_ended(folder)
        names = sorted(p.name for p in folder.glob("*.db"))
        assert names == ["counter_folded.db", "histogram_folded.db"], names

    total = 10 * sum(range(1, 9))
    values = scraped(folder)
    requests = sum(v for (name, _), v in values.items() if name == "t_requests_total")
    assert requests == total
    assert values[("t_seconds_count", ())] == total
    assert values[("t_seconds_sum", ())] == pytest.approx(0.5 * total)
    assert values[("t_seconds_bucket", (("le", "1.0"),))] == total
    assert values[("t_seconds_bucket", (("le", "0.1"),))] == 0
    assert ("t_busy", ()) not in values, "an ended process is not busy"


def test_a_live_process_is_not_folded(tmp_path: Path) -> None:
    folder = tmp_path / "web"
    folder.mkdir()
    assert record(folder, 3).returncode == 0
    ended = metrics_fold.writers(folder).pop()
    # This process "wrote" too: its files stay, its own.
    (folder / f"counter_{os.getpid()}.db").write_bytes(
        (folder / f"counter_{ended}.db").read_bytes()
    )
    metrics_fold.fold_ended(folder)
    assert metrics_fold.writers(folder) == {os.getpid()}
    assert sum(v for (n, _), v in scraped(folder).items() if n.endswith("total")) == 6


def _limit_files_to_96k() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (96 * 1024, resource.RLIM_INFINITY))


@contextmanager
def full_tmpfs(tmp: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    with small_disk(tmp / "tmpfs", "256k") as disk:
        (disk / "web").mkdir()
        fill(disk)
        yield disk / "web", {}


@contextmanager
def size_limit(tmp: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    # The first 64 KiB of a file fit, its growth to 128 KiB does not.
    (tmp / "web").mkdir()
    yield tmp / "web", {"preexec_fn": _limit_files_to_96k}


@pytest.mark.parametrize("breakage", [full_tmpfs, size_limit])
def test_a_metrics_write_that_cannot_be_made_neither_raises_nor_kills(
    tmp_path: Path,
    breakage: Callable[[Path], AbstractContextManager[tuple[Path, dict[str, Any]]]],
) -> None:
    with breakage(tmp_path) as (folder, options):
        # The hazard is real: prometheus-client alone dies (SIGBUS) or raises.
        bare = record(folder, 3000, mode="bare", **options)
        assert bare.returncode in (-signal.SIGBUS, 1), bare
        assert bare.returncode == -signal.SIGBUS or "OSError" in bare.stderr
        for path in folder.iterdir():
            path.unlink()

        guarded = record(folder, 3000, **options)
        assert guarded.returncode == 0, guarded.stderr
        assert "counted 3000.0" in guarded.stdout  # it went on counting, privately
        assert guarded.stderr.count("no longer shared") == 1, guarded.stderr


def test_the_clusters_heartbeat_folds_its_ended_processes_without_a_scrape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jobs import heartbeat

    folder = tmp_path / "worker"
    folder.mkdir()
    for _ in range(3):  # django-q2 replaced three processes, nobody scraped
        assert record(folder, 4).returncode == 0
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    heartbeat.fold_ended_metrics()
    names = sorted(p.name for p in folder.glob("*.db"))
    assert names == ["counter_folded.db", "histogram_folded.db"], names
    assert sum(v for (n, _), v in scraped(folder).items() if n.endswith("total")) == 12


def test_a_fold_that_cannot_write_its_total_keeps_the_ended_files_counted(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "web"
    folder.mkdir()
    assert record(folder, 5).returncode == 0
    metrics_fold.fold_ended(folder)
    assert record(folder, 7).returncode == 0
    # The total's new copy cannot be written (as on a full disk).
    blocker = folder / ".counter_folded.partial"
    blocker.mkdir()
    metrics_fold.fold_ended(folder)

    def requests() -> float:
        values = scraped(folder).items()
        return sum(v for (n, _), v in values if n == "t_requests_total")

    assert len(metrics_fold.writers(folder)) == 1  # the ended process, kept
    assert requests() == 12
    assert scraped(folder)[("t_seconds_count", ())] == 12
    blocker.rmdir()  # room again: the next fold takes it in
    metrics_fold.fold_ended(folder)
    assert metrics_fold.writers(folder) == set()
    assert requests() == 12


def test_a_damaged_file_of_an_ended_process_is_dropped_and_the_rest_folded(
    tmp_path: Path,
) -> None:
    """A damaged file (here a key that is not UTF-8) kept would fail every
    scrape from then on: it is dropped, and the good files are still folded."""
    folder = tmp_path / "web"
    folder.mkdir()
    assert record(folder, 5).returncode == 0
    (ended,) = metrics_fold.writers(folder)
    damaged = folder / f"counter_{ended}.db"
    data = bytearray(damaged.read_bytes())
    data[12:16] = b"\xff\xfe\xff\xfe"  # inside the first key
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError):
        scraped(folder)

    metrics_fold.fold_ended(folder)

    assert sorted(p.name for p in folder.glob("*.db")) == ["histogram_folded.db"]
    assert scraped(folder)[("t_seconds_count", ())] == 5
