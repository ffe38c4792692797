"""Files and rows never drift: a delete that fails half-way loses no file a row
names, and the reconciler removes files without rows and marks rows whose file
is gone, whose readers then hear so (410) instead of a 500."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from documents.models import DeletedDocument, Document
from documents.reconcile import reconcile
from documents.storage import tmp_dir
from tests.conftest import doc_url


def _age(path: str, hours: float) -> None:
    when = time.time() - hours * 3600
    os.utime(path, (when, when))


def test_a_delete_that_fails_half_way_keeps_the_file_its_row_names(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc_id = uploaded(make_pdf(1))
    path = Document.objects.get(pk=doc_id).file.path

    def database_gone(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(DeletedDocument.objects, "bulk_create", database_gone)
    assert client.delete(doc_url(doc_id)).status_code == 503
    monkeypatch.undo()
    assert Path(path).exists()  # its row is still there: so is its file
    assert client.get(doc_url(doc_id, "/file")).status_code == 200


def test_the_reconciler_removes_old_files_without_rows_and_keeps_young_ones() -> None:
    old = default_storage.save("documents/2020/01/01/orphan", ContentFile(b"x"))
    young = default_storage.save("documents/2020/01/01/uploading", ContentFile(b"y"))
    _age(default_storage.path(old), hours=2)

    found = reconcile(dry_run=True)
    assert found.files_without_rows == [old]
    assert default_storage.exists(old)  # a dry run changes nothing

    repaired = reconcile()
    assert repaired.files_without_rows == [old]
    assert not default_storage.exists(old)
    assert default_storage.exists(young)  # may be an upload whose row is coming


def test_a_document_whose_file_is_gone_is_marked_and_answers_410(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    doc = Document.objects.get(pk=doc_id)
    os.unlink(doc.file.path)
    # Even before the reconciler runs, readers get a 410, not a 500.
    assert client.get(doc_url(doc_id, "/file")).status_code == 410
    Document.objects.filter(pk=doc_id).update(
        created_at=timezone.now() - timedelta(hours=2)
    )
    assert reconcile().rows_without_files == [doc_id]
    assert Document.objects.get(pk=doc_id).file_lost_at is not None
    for path in ("/file", "/pages/0/image", "/pages/0/text/position"):
        answer = client.get(doc_url(doc_id, path))
        assert answer.status_code == 410, (path, answer.content)
        assert "upload the document again" in answer.json()["detail"]
    assert reconcile().clean  # marked once, not again


def test_stale_temporary_files_of_killed_processes_are_removed() -> None:
    stale = tmp_dir() / "killed-upload"
    stale.write_bytes(b"")
    _age(str(stale), hours=7)
    fresh = tmp_dir() / "spooling-now"
    fresh.write_bytes(b"")
    assert str(stale) in reconcile().temporary_files
    assert not stale.exists() and fresh.exists()


def test_the_command_reports_without_changing_anything_on_a_dry_run() -> None:
    orphan = default_storage.save("documents/2020/01/02/orphan", ContentFile(b"x"))
    _age(default_storage.path(orphan), hours=2)
    out = io.StringIO()
    call_command("reconcile", "--dry-run", stdout=out)
    assert "files without rows: 1 (found)" in out.getvalue()
    assert orphan in out.getvalue()
    assert default_storage.exists(orphan)
