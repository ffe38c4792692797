"""LibreOffice, kept warm in a supervised pool, converts Office documents.

`OfficePool` is the pool (see pool.py for its lifetime), `office_to_pdf`
the converter, `process_pool()` the pool of the current process for callers
that convert in long-lived worker processes.
"""

from __future__ import annotations

import atexit
import os
import threading

from engines.convert.office.convert import office_export, office_to_pdf
from engines.convert.office.pool import OfficePool
from engines.convert.office.settings import (
    UNOBSERVED,
    PoolObserver,
    PoolSettings,
    PoolStats,
)

_pool: OfficePool | None = None
_pool_pid: int | None = None
_pool_lock = threading.Lock()


def process_pool(
    settings: PoolSettings | None = None, observer: PoolObserver = UNOBSERVED
) -> OfficePool:
    """The pool of this process, created (and started) on first use.

    A forked child gets a pool of its own: a pool's threads and instances do
    not survive a fork. The pool is closed when the process exits normally;
    if the process is killed, its instances exit by themselves (lifeline).
    `settings` are used when the pool is created, ignored afterwards.
    """
    global _pool, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool = OfficePool(settings, observer)
            _pool_pid = os.getpid()
            atexit.register(_pool.close)
            _pool.start()
        return _pool


def close_process_pool() -> None:
    """Close this process's pool (e.g. in a worker's shutdown hook)."""
    global _pool
    with _pool_lock:
        if _pool is not None and _pool_pid == os.getpid():
            _pool.close()
        _pool = None


__all__ = [
    "OfficePool",
    "PoolObserver",
    "PoolSettings",
    "PoolStats",
    "close_process_pool",
    "office_export",
    "office_to_pdf",
    "process_pool",
]
