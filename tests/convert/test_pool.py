"""The pool supervises its instances: time and memory limits kill them,
crashes are survived, instances are recycled, nothing is left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.convert import (
    ConversionFailed,
    ConversionTimeout,
    LimitExceeded,
    OfficePool,
    PoolSettings,
)
from engines.convert.office.procs import find_descendant
from tests.convert import files
from tests.convert.helpers import leftovers, tree

ROOT = Path(__file__).resolve().parents[2]


def long_document(path: Path, paragraphs: int = 4000) -> Path:
    words = files.WORDS
    return files.make_docx(
        path,
        ["Long document"]
        + [
            " ".join(words[(n + k) % len(words)] for k in range(40))
            for n in range(paragraphs)
        ],
    )


@pytest.fixture(scope="module")
def small_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return files.make_docx(
        tmp_path_factory.mktemp("docs") / "small.docx", ["Small", "words"]
    )


@pytest.fixture(scope="module")
def big_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return long_document(tmp_path_factory.mktemp("docs") / "big.docx")


@pytest.fixture(scope="module")
def fragile_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OfficePool]:
    workdir = tmp_path_factory.mktemp("fragile-pool")
    pool = OfficePool(PoolSettings(size=1, recycle_after=3, workdir=str(workdir)))
    pool.start()
    yield pool
    pool.close()


def instance_tree(pool: OfficePool) -> list[int]:
    (stats,) = pool.stats().instances
    assert stats.pid is not None
    return tree(stats.pid)


def test_a_conversion_past_its_time_limit_is_killed_and_the_pool_recovers(
    tmp_path: Path, fragile_pool: OfficePool, big_docx: Path, small_docx: Path
) -> None:
    before = instance_tree(fragile_pool)
    started = time.monotonic()

    with pytest.raises(ConversionTimeout, match="time limit of 0.5 s"):
        fragile_pool.convert(str(big_docx), str(tmp_path / "big.pdf"), timeout=0.5)

    assert time.monotonic() - started < 5
    fragile_pool.convert(str(small_docx), str(tmp_path / "small.pdf"))
    assert (tmp_path / "small.pdf").stat().st_size > 0
    assert leftovers(before, marker="no-marker") == []


def test_a_crashed_instance_fails_its_conversion_and_is_replaced(
    tmp_path: Path, fragile_pool: OfficePool, big_docx: Path, small_docx: Path
) -> None:
    before = instance_tree(fragile_pool)
    office = find_descendant(before[0], "soffice.bin")
    assert office is not None
    # SIGKILL (an OOM kill), not SIGSEGV: LibreOffice's own crash handler can
    # sit on a SIGSEGV on a loaded machine until the 60 s limit. A timer
    # thread, not a child process: a child left unreaped when the conversion
    # fails another way would be a zombie in every later leftover check.
    killer = threading.Timer(0.3, os.kill, (office, signal.SIGKILL))
    killer.start()
    try:
        with pytest.raises(ConversionFailed, match="crashed"):
            fragile_pool.convert(str(big_docx), str(tmp_path / "big.pdf"), timeout=60)
    finally:
        killer.cancel()
        killer.join()
    fragile_pool.convert(str(small_docx), str(tmp_path / "small.pdf"))
    assert leftovers(before, marker="no-marker") == []


def test_an_instance_is_recycled_after_its_conversions(
    tmp_path: Path, fragile_pool: OfficePool, small_docx: Path
) -> None:
    fragile_pool.convert(str(small_docx), str(tmp_path / "0.pdf"))  # a fresh start
    first = fragile_pool.stats().instances[0]
    while fragile_pool.stats().instances[0].starts == first.starts:
        fragile_pool.convert(str(small_docx), str(tmp_path / "n.pdf"))
    after = fragile_pool.stats().instances[0]

    assert after.pid != first.pid
    assert leftovers(tree(first.pid) if first.pid else [], marker="no-marker") == []


def test_an_instance_over_its_memory_limit_is_killed(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, small_docx: Path
) -> None:
    workdir = tmp_path_factory.mktemp("memory-pool")
    with OfficePool(PoolSettings(size=1, max_rss_mb=1, workdir=str(workdir))) as pool:
        with pytest.raises(LimitExceeded, match="more memory than the limit of 1 MB"):
            pool.convert(str(small_docx), str(tmp_path / "small.pdf"))


def test_closing_the_pool_leaves_no_process_and_no_file(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, small_docx: Path
) -> None:
    workdir = tmp_path_factory.mktemp("closing-pool")
    pool = OfficePool(PoolSettings(size=2, workdir=str(workdir)))
    pool.start()
    pool.convert(str(small_docx), str(tmp_path / "small.pdf"))
    pids = [
        pid for stats in pool.stats().instances if stats.pid for pid in tree(stats.pid)
    ]
    assert len(pids) >= 4  # [unshare,] server and soffice.bin per instance

    pool.close()

    assert leftovers(pids, marker=str(workdir)) == []
    assert not any(Path(workdir).glob("instance-*"))
    assert not [p for p in Path("/tmp").glob("OSL_PIPE_*") if str(workdir) in p.name]


def test_instances_exit_when_their_worker_process_is_killed(tmp_path: Path) -> None:
    """A worker killed with SIGKILL never closes its pool: the instances see
    their lifeline pipe close and exit by themselves."""
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from engines.convert import OfficePool, PoolSettings
        from engines.convert.office.procs import descendants
        pool = OfficePool(PoolSettings(size=1, workdir={str(tmp_path / "pool")!r}))
        pool.start()
        pid = pool.stats().instances[0].pid
        print(" ".join(str(p) for p in [pid, *descendants(pid)]), flush=True)
        time.sleep(600)
        """
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    assert worker.stdout is not None
    pids = [int(pid) for pid in worker.stdout.readline().split()]
    assert pids

    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()

    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and leftovers(
        pids[1:], marker=str(tmp_path / "pool")
    ):
        time.sleep(0.2)
    # The tree's root (unshare or the server) was the dead worker's child: it
    # is reaped by init, not by us; everything below it must be gone.
    assert (
        leftovers(pids[1:], marker=str(tmp_path / "pool" / "instance-1" / "profile"))
        == []
    )
