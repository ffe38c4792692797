"""The counters of processes that ended, folded into one total per folder.

Each process of prometheus-client's multiprocess mode writes files named by its
pid. gunicorn replaces a web worker every few thousand requests, django-q2 a
cluster process every few hundred tasks: left alone, their files pile up for as
long as the node runs, and every scrape reads them all. When a process has ended,
its counters and histograms (whose values only add up) are added to
`counter_folded.db` / `histogram_folded.db` and its files removed; its live
gauges are forgotten (prometheus-client's `mark_process_dead`). The folder then
holds the files of the live processes and two totals, and a scrape reads the
same sums as before.

A fold replaces the total and removes the ended file under an exclusive lock of
the folder, a scrape reads under a shared one: no scrape sees a process counted
twice or not at all, so counters never go down. A total that cannot be written
(the folder's disk is full) leaves the ended files as they are, still counted.

Pure (no Django): gunicorn's master folds a worker when it exits; a scrape
folds any other process found gone (the cluster's, which end unannounced).
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import multiprocess
from prometheus_client.mmap_dict import MmapedDict

logger = logging.getLogger(__name__)

FOLDED = "folded"
ADDITIVE = ("counter", "histogram")  # file kinds whose values add up
_PROCESS_FILE = re.compile(r"^[a-z]+(?:_[a-z]+)?_(\d+)\.db$")
_LOCK = ".lock"


@contextmanager
def locked(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """The folder's lock: exclusive to fold, shared to read. A lock file that
    cannot be made (a full disk) is no reason to stop: go on without it."""
    try:
        fd = os.open(folder / _LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # releases the lock


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def writers(folder: Path) -> set[int]:
    """The pids that have files in `folder`."""
    found = (_PROCESS_FILE.match(path.name) for path in folder.glob("*.db"))
    return {int(match.group(1)) for match in found if match}


def fold_ended(folder: Path) -> None:
    """Fold every process of `folder` that is no longer running."""
    for pid in sorted(writers(folder)):
        if not alive(pid):
            fold(folder, pid)


def fold(folder: Path, pid: int) -> None:
    """Add the counters and histograms of `pid` (ended) to the folder's totals,
    remove its files, and forget its live gauges."""
    with locked(folder, exclusive=True):
        if alive(pid):  # checked again under the lock: a pid can be reused
            return
        multiprocess.mark_process_dead(pid, str(folder))
        for kind in ADDITIVE:
            ended = folder / f"{kind}_{pid}.db"
            if not ended.exists():
                continue
            try:
                values = _read(ended)
            except _UNREADABLE as exc:
                # Damaged: kept, it would fail every scrape from now on.
                _warn_once(pid, "dropped, its file is damaged", exc)
                ended.unlink(missing_ok=True)
                continue
            total = folder / f"{kind}_{FOLDED}.db"
            try:
                sums = _read(total)
                for key, value in values.items():
                    sums[key] = sums.get(key, 0.0) + value
                _write(total, sums)
            except (OSError, *_UNREADABLE) as exc:
                _warn_once(pid, "kept apart", exc)
                return
            ended.unlink()


# What reading a damaged file raises (a bad key is a UnicodeDecodeError).
_UNREADABLE = (RuntimeError, struct.error, ValueError)
_warned: set[int] = set()


def _warn_once(pid: int, what: str, exc: Exception) -> None:
    """One line per ended process, not one at every scrape and heartbeat."""
    if pid not in _warned:
        _warned.add(pid)
        logger.warning("metrics of ended process %s %s: %s", pid, what, exc)


def readable(path: Path) -> bool:
    """Not empty: a file a process is creating this instant has no header yet."""
    try:
        return path.stat().st_size >= 8
    except OSError:
        return False


def _read(path: Path) -> dict[str, float]:
    if not readable(path):
        return {}
    return {
        key: value
        for key, value, _, _ in MmapedDict.read_all_values_from_file(str(path))
    }


def _write(path: Path, sums: dict[str, float]) -> None:
    """`sums` in the client's file format (see prometheus_client.mmap_dict),
    written with plain writes (a full disk raises, it cannot kill) to a file the
    scrape does not read (not *.db), then renamed over the total."""
    body = bytearray()
    for key, value in sums.items():
        encoded = key.encode("utf-8")
        padded = encoded + b" " * (8 - (len(encoded) + 4) % 8)
        body += struct.pack(f"i{len(padded)}sdd", len(encoded), padded, value, 0.0)
    data = struct.pack("i4x", 8 + len(body)) + body
    partial = path.with_name(f".{path.stem}.partial")
    try:
        with open(partial, "wb") as out:
            out.write(data)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
