"""Metric writes that cannot fail a request nor kill a process.

prometheus-client's multiprocess mode keeps each process's values in a file it
memory-maps, grown by `truncate`: a sparse file whose pages the file system
provides only when first written. On a full file system (the RAM disk of the
metrics, or the data disk an operator put them on) that first write is a SIGBUS,
which no Python code can catch: the process dies, in the middle of a request. A
file size limit or an unwritable folder raise instead, from inside the request.

Here every page of a metrics file is reserved (posix_fallocate) before it is
mapped, so a full disk answers ENOSPC where it can be handled. The first write
that cannot be made disables the shared metrics of that process, with one log
line: its values move to private memory and go on counting there (its file keeps
what it counted until then; /metrics, which reads the files, leaves out the
rest). A process forked afterwards tries the files again.

Pure (no Django): gunicorn's master installs it before it forks its workers.
"""

from __future__ import annotations

import logging
import mmap
import os
import weakref
from typing import Any

from prometheus_client import values
from prometheus_client.mmap_dict import _INITIAL_MMAP_SIZE, MmapedDict, _pack_integer

logger = logging.getLogger(__name__)

# The process whose metrics are private now (a fork is another process).
_disabled_in: int | None = None
_dicts: weakref.WeakSet[GuardedMmapedDict] = weakref.WeakSet()


def install() -> None:
    """Make prometheus-client open its files through `GuardedMmapedDict` (before
    the first metric is created; the client looks the class up at each open)."""
    values.MmapedDict = GuardedMmapedDict  # type: ignore[misc]


def shared_in_this_process() -> bool:
    return _disabled_in != os.getpid()


def _reserve(filename: str, size: int) -> None:
    """Make `filename` at least `size` bytes, every byte backed by the disk now."""
    fd = os.open(filename, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        had = os.fstat(fd).st_size
        try:
            os.posix_fallocate(fd, 0, max(size, had))
        except OSError:
            if had == 0:  # an empty file would be read as a broken one
                os.unlink(filename)
            raise
    finally:
        os.close(fd)


def _entry_size(key: str) -> int:
    """Bytes the client's `_init_value` appends for `key` (its file format)."""
    encoded = len(key.encode("utf-8"))
    return 4 + encoded + (8 - (encoded + 4) % 8) + 16


def _disable(error: OSError) -> None:
    global _disabled_in
    if _disabled_in == os.getpid():
        return
    _disabled_in = os.getpid()
    logger.error(
        "metrics of process %s are no longer shared: a metrics file could not be "
        "written (%s); /metrics leaves out what this process records from now on",
        os.getpid(),
        error,
    )
    for mapped in list(_dicts):
        mapped.go_private()


class GuardedMmapedDict(MmapedDict):
    """The client's file of one process, reserved before it is written, or, once
    a write failed, a copy of it in private memory (a bytearray: the client reads
    and writes it by slices and struct offsets, as it does its mmap)."""

    # The client's own attributes, which here may also be private memory / none.
    _m: Any
    _f: Any

    def __init__(self, filename: str, read_mode: bool = False) -> None:
        self._private = False
        if read_mode:
            super().__init__(filename, read_mode=True)
            return
        try:
            if not shared_in_this_process():
                raise OSError(f"shared metrics are off in process {os.getpid()}")
            _reserve(filename, _INITIAL_MMAP_SIZE)
            super().__init__(filename)
        except OSError as exc:
            self._close_file()
            _disable(exc)
            self._start_private(filename)
        _dicts.add(self)

    def _init_value(self, key: str) -> None:
        needed = _entry_size(key)
        try:
            self._make_room(needed)
        except OSError as exc:
            _disable(exc)
            self._make_room(needed)
        super()._init_value(key)  # there is room: it does not grow the file

    def _make_room(self, needed: int) -> None:
        capacity = self._capacity
        while self._used + needed > capacity:
            capacity *= 2
        if capacity == self._capacity:
            return
        if self._private:
            self._m.extend(bytes(capacity - self._capacity))
        else:
            _reserve(self._fname, capacity)
            self._m = mmap.mmap(self._f.fileno(), capacity)
        self._capacity = capacity

    def go_private(self) -> None:
        """Go on in private memory with what the file holds (its used part only:
        every byte of it was reserved, reading it cannot fault)."""
        if self._private or self._f is None:
            return
        data = bytearray(self._m[: self._used])
        data.extend(bytes(self._capacity - self._used))
        self._close_file()
        self._m = data
        self._private = True

    def _start_private(self, filename: str) -> None:
        self._fname = filename
        self._private = True
        self._capacity = _INITIAL_MMAP_SIZE
        self._m = bytearray(_INITIAL_MMAP_SIZE)
        self._positions = {}
        self._used = 8
        _pack_integer(self._m, 0, self._used)

    def _close_file(self) -> None:
        mapped = getattr(self, "_m", None)
        if isinstance(mapped, mmap.mmap):
            mapped.close()
        opened = getattr(self, "_f", None)
        if opened is not None:
            opened.close()
        self._f = None
