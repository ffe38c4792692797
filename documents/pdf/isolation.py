"""Engine work on untrusted files, run in a child process.

Uploads are checked with qpdf (decompression bombs, the page tree) while MuPDF
reads their layout in the calling process: the two run side by side on two cores
instead of one after the other. The child also keeps a hostile file away from the
web process: a crash, a runaway allocation or a hang in qpdf ends the child, and
the upload is refused with a message, while the web process carries on.

Children come from a fork server (a clean interpreter that imported only the
engine), never from a fork of a threaded web worker, and are replaced after
`TASKS_PER_CHILD` tasks.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Generic, TypeVar

from documents.pdf.types import UnsupportedDocument

logger = logging.getLogger(__name__)

CHILDREN = 2
TASKS_PER_CHILD = 200

T = TypeVar("T")

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["documents.pdf.layout"])
            _pool = ProcessPoolExecutor(
                max_workers=CHILDREN,
                mp_context=context,
                max_tasks_per_child=TASKS_PER_CHILD,
            )
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    """Stop `pool`'s children at once (a hung task cannot be cancelled) and let
    the next call start new ones."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    # ProcessPoolExecutor has no public way to end a running task (Python 3.14
    # adds kill_workers()); its process table is the only handle on the children.
    for process in list(getattr(pool, "_processes", {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


class Task(Generic[T]):
    """`function(*args)` running in a child; `function` must be importable by name."""

    def __init__(self, function: Callable[..., T], *args: object) -> None:
        self._function, self._args = function, args
        self._pool = _executor()
        try:
            self._future = self._pool.submit(function, *args)
        except BrokenProcessPool:  # a crash of an earlier task: start new children
            self._restart()

    def _restart(self) -> None:
        _discard(self._pool)
        self._pool = _executor()
        self._future = self._pool.submit(self._function, *self._args)

    def result(self, timeout: float) -> T:
        """The value, or the exception the function raised; `UnsupportedDocument`
        when it did not finish within `timeout` or ended its child twice (a crash,
        the kernel's OOM killer). Once, the task is run again: another task may
        have broken the children it shared."""
        for attempt in (1, 2):
            try:
                return self._future.result(timeout=timeout)
            except FutureTimeout:
                _discard(self._pool)
                raise UnsupportedDocument(
                    f"checking the PDF took longer than {timeout:g} s; "
                    "it is not processed"
                ) from None
            except BrokenProcessPool:
                logger.warning(
                    "a PDF check ended its child process (attempt %d)", attempt
                )
                if attempt == 1:
                    self._restart()
        _discard(self._pool)
        raise UnsupportedDocument(
            "the PDF could not be checked: reading it ended the checking process "
            "(a damaged or hostile file); repair it or save it again as PDF"
        )
