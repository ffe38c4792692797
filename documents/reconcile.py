"""Files and rows never drift apart for long.

A document is written file first, row second, and deleted row first, file
second (documents.services), so a crash between the two leaves a file without
a row, never a row without a file. The reconciler, run every hour by the
workers' scheduler and by `manage.py reconcile`, removes stored files that no
row names (once they are older than a grace, so that an upload being stored is
left alone), marks rows whose file is gone (their readers then hear so instead
of failing), and removes temporary files that killed processes left behind.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from django.core.files.storage import default_storage
from django.utils import timezone

from documents.models import Document
from documents.storage import tmp_dir
from engines.convert.office.workdirs import remove_abandoned

logger = logging.getLogger(__name__)

ROOT = "documents"
# Younger files may belong to an upload whose row is being committed.
GRACE = timedelta(hours=1)
# Temporary files older than this belong to no live request or order (the order
# timeout is minutes).
TEMP_GRACE = timedelta(hours=6)


@dataclass
class Drift:
    """What a reconciliation found (and, unless a dry run, repaired)."""

    files_without_rows: list[str] = field(default_factory=list)
    rows_without_files: list[str] = field(default_factory=list)
    temporary_files: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.files_without_rows or self.rows_without_files)


def _stored(prefix: str) -> Iterator[str]:
    """Every stored file under `prefix`, depth first."""
    folders, files = default_storage.listdir(prefix)
    for name in files:
        yield f"{prefix}/{name}"
    for folder in folders:
        yield from _stored(f"{prefix}/{folder}")


def _old_enough(name: str, before: float) -> bool:
    try:
        return default_storage.get_modified_time(name).timestamp() < before
    except (OSError, NotImplementedError):
        return False


def reconcile(*, dry_run: bool = False, grace: timedelta = GRACE) -> Drift:
    """Find (and unless `dry_run` repair) files without rows, rows without files
    and stale temporary files."""
    drift = Drift()
    before = time.time() - grace.total_seconds()
    known = set(Document.objects.values_list("file", flat=True))
    try:
        stored = set(_stored(ROOT))
    except FileNotFoundError:
        stored = set()
    for name in sorted(stored - known):
        if _old_enough(name, before):
            drift.files_without_rows.append(name)
    cutoff = timezone.now() - grace
    for doc_id, name in (
        Document.objects.filter(created_at__lt=cutoff, file_lost_at__isnull=True)
        .exclude(file="")
        .values_list("id", "file")
    ):
        if name not in stored:
            drift.rows_without_files.append(doc_id)
    drift.temporary_files = _stale_temporary_files()
    if not dry_run:
        drift.temporary_files += remove_abandoned()  # LibreOffice pools' folders
    if not dry_run:
        _repair(drift)
    return drift


def _stale_temporary_files() -> list[str]:
    before = time.time() - TEMP_GRACE.total_seconds()
    stale = []
    for path in sorted(Path(tmp_dir()).rglob("*")):
        try:
            if path.is_file() and path.stat().st_mtime < before:
                stale.append(str(path))
        except OSError:
            continue
    return stale


def _repair(drift: Drift) -> None:
    for name in drift.files_without_rows:
        default_storage.delete(name)
        logger.warning("removed stored file %s: no document names it", name)
    if drift.rows_without_files:
        Document.objects.filter(pk__in=drift.rows_without_files).update(
            file_lost_at=timezone.now()
        )
        logger.warning(
            "%d documents have lost their stored file: %s",
            len(drift.rows_without_files),
            ", ".join(drift.rows_without_files[:20]),
        )
    for path in drift.temporary_files:
        try:
            os.unlink(path)
        except OSError:
            continue
    _remove_empty_folders(Path(tmp_dir()))


def _remove_empty_folders(root: Path) -> None:
    """Empty folders under `root` left by killed processes (old enough that no
    live work is about to write into them)."""
    before = time.time() - TEMP_GRACE.total_seconds()
    for folder in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        try:
            if folder.is_dir() and folder.stat().st_mtime < before:
                folder.rmdir()  # only when empty
        except OSError:
            continue


def reconcile_task() -> None:
    """The hourly task of the workers' scheduler."""
    drift = reconcile()
    logger.info(
        "reconciled: %d files without rows removed, %d rows without files marked, "
        "%d temporary files removed",
        len(drift.files_without_rows),
        len(drift.rows_without_files),
        len(drift.temporary_files),
    )
