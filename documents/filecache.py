"""A node's cache of the files of a remote storage (S3 and the like).

The engines read local paths, and a document on S3 is on no node's disk: each
node copies down what it reads, once, into `<data dir>/cache/files/<storage
name>`, and reads it from there until the cache needs the room. It is only a
cache: a document's bytes always come from the storage every node shares (or
were just written to it by this node), and storage names are never reused
(random, see documents/models.py), so a cached copy never goes stale.

Least recently used files go first when the cache passes FILE_CACHE_BYTES;
files used within the order timeout are kept, since an order may still read
them. Reads set the access time explicitly (mounts may be noatime) and keep the
modification time, which the text engine's cache keys on.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.core.files import File

from transformsvc.conf import service

logger = logging.getLogger(__name__)

_trim_lock = threading.Lock()


def cache_dir() -> Path:
    return Path(settings.DATA_DIR) / "cache" / "files"


def cached_path(name: str) -> Path:
    """Where the file stored as `name` is cached (a name is relative, no `..`)."""
    parts = PurePosixPath(name).parts
    if not parts or PurePosixPath(name).is_absolute() or ".." in parts:
        raise ValueError(f"not a storage name: {name!r}")
    return cache_dir().joinpath(*parts)


def _touch(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(time.time_ns(), stat.st_mtime_ns))


def local_copy(file: File[bytes]) -> Path:
    """A local path of the stored `file`: the cached copy, made now if needed."""
    path = cached_path(str(file.name))
    try:
        _touch(path)
        return path
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as out, file.open("rb") as src:
            shutil.copyfileobj(src, out, 256 * 1024)
        os.replace(partial, path)  # atomic: a reader never sees half a file
    finally:
        Path(partial).unlink(missing_ok=True)
    trim()
    return path


def remember(name: str, source: Path) -> None:
    """Cache `source`, the bytes just stored as `name` (a hard link when it can)."""
    path = cached_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".part-{os.getpid()}-{threading.get_ident()}")
    try:
        try:
            os.link(source, partial)
        except OSError:  # another file system
            shutil.copyfile(source, partial)
        os.replace(partial, path)
    except OSError:
        logger.warning("could not cache %s", name, exc_info=True)
        partial.unlink(missing_ok=True)
        return
    trim()


def forget(name: str) -> None:
    try:
        cached_path(name).unlink(missing_ok=True)
    except ValueError:
        pass


def trim(limit: int | None = None) -> int:
    """Remove least recently used files until the cache holds at most `limit`
    bytes (FILE_CACHE_BYTES); files used within the order timeout stay. Returns
    the bytes removed."""
    limit = service().file_cache_bytes if limit is None else limit
    keep_after = time.time() - max(60, service().order_timeout)
    if not _trim_lock.acquire(blocking=False):
        return 0  # another thread of this process is trimming
    try:
        files = []
        total = 0
        for path in cache_dir().rglob("*"):
            try:
                stat = path.stat()
            except FileNotFoundError:
                continue
            if path.is_file():
                files.append((stat.st_atime, stat.st_size, path))
                total += stat.st_size
        removed = 0
        for atime, size, path in sorted(files):
            if total - removed <= limit or atime > keep_after:
                break
            path.unlink(missing_ok=True)
            removed += size
        return removed
    finally:
        _trim_lock.release()
