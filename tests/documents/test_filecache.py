"""The node-local cache of a remote storage's files."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage

from documents import filecache


class Stored:
    """What the cache needs of a FieldFile: its storage name and open()."""

    def __init__(self, storage: FileSystemStorage, name: str) -> None:
        self.storage, self.name = storage, name

    def open(self, mode: str = "rb") -> Any:
        return self.storage.open(self.name, mode)


def stored(tmp_path: Any, name: str, data: bytes) -> Any:
    storage = FileSystemStorage(location=tmp_path / "remote")
    storage.save(name, ContentFile(data))
    return Stored(storage, name)


def test_a_file_is_copied_down_once_and_its_mtime_survives_reads(
    tmp_path: Any,
) -> None:
    file = stored(tmp_path, "documents/a", b"x" * 100)
    first = filecache.local_copy(file)
    mtime = first.stat().st_mtime_ns
    assert first.read_bytes() == b"x" * 100
    file.storage.delete("documents/a")  # the second read needs no storage
    assert filecache.local_copy(file) == first
    assert first.stat().st_mtime_ns == mtime, "the text engine's cache keys on it"


def test_least_recently_used_files_go_first_but_not_those_in_use(
    tmp_path: Any, settings: Any
) -> None:
    settings.SERVICE = replace(settings.SERVICE, order_timeout=60)
    paths = [
        filecache.local_copy(stored(tmp_path, f"documents/{n}", b"y" * 1000))
        for n in range(3)
    ]
    old = time.time() - 3600
    for n, path in enumerate(paths[:2]):  # 0 is the least recently used
        os.utime(path, (old + n, path.stat().st_mtime))
    assert filecache.trim(limit=1500) == 2000
    assert [p.exists() for p in paths] == [False, False, True]


def test_storage_names_cannot_leave_the_cache() -> None:
    with pytest.raises(ValueError):
        filecache.cached_path("../../etc/passwd")
    with pytest.raises(ValueError):
        filecache.cached_path("/etc/passwd")
