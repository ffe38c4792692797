"""Deleting documents: their children and renditions, files and rows, with a
record of each for reports."""

from __future__ import annotations

import logging
from functools import partial

from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction

from documents import filecache
from documents.models import DeletedDocument, Document
from documents.selectors import documents_visible
from jobs.notify import notify_final
from transformsvc.problems import NotFound

logger = logging.getLogger(__name__)


def document_delete(
    *, document_id: str, owner_id: int | None = None, missing_ok: bool = False
) -> None:
    """Delete a visible document with its children and renditions, files
    included. An unknown id is a 404 (decisions §3) unless `missing_ok`."""
    found = list(documents_visible(owner_id).filter(pk=document_id))
    if not found and not missing_ok:
        raise NotFound(f"no document with id {document_id!r}")
    for doc in found:
        document_remove(doc)


def document_remove(doc: Document) -> list[Document]:
    """Delete `doc`, its children and its renditions: rows, a DeletedDocument
    record of each for reports, then (once that committed) files and this
    node's cached copies. Returns what was deleted.

    Rows go first: a delete that fails half-way leaves files without rows,
    which the reconciler removes, never rows whose files are gone."""
    # Outside a transaction, a failed commit is tried again (below); inside one,
    # the violation surfaces at the caller's commit.
    nested = transaction.get_connection().in_atomic_block
    retries = 0 if nested else 2
    key = doc.pk
    while True:
        gone = _with_dependents(doc)
        names = [str(d.file.name) for d in gone if d.file.name]
        try:
            with transaction.atomic():
                DeletedDocument.objects.bulk_create(_deleted_record(d) for d in gone)
                for dependent in gone:  # wakes its waiting readers, at commit
                    notify_final(dependent.pk)
                doc.delete()  # the rows of children and renditions cascade
                if nested:  # committed with the caller's transaction
                    transaction.on_commit(partial(remove_files, names))
            if not nested:
                remove_files(names)
            return gone
        except IntegrityError:
            # A worker ended an order meanwhile and pointed it at one of these
            # rows after doc.delete() had unlinked the orders pointing there
            # (its rendition, made as the document was being deleted): the
            # commit failed as a whole. Again: this time it unlinks that order.
            if retries == 0:
                raise
            retries -= 1
            # delete() cleared the primary keys of what it collected: read again.
            again = Document.objects.filter(pk=key).first()
            if again is None:
                return gone
            doc = again


def remove_files(names: list[str]) -> None:
    """Delete stored files (and this node's cached copies); a file that cannot be
    deleted now is left to the reconciler (it has no row any more)."""
    for name in names:
        filecache.forget(name)
        try:
            default_storage.delete(name)  # a missing file is no error
        except Exception:
            logger.warning("file %s was not deleted; the reconciler will", name)


def _deleted_record(doc: Document) -> DeletedDocument:
    return DeletedDocument(
        document_id=doc.id,
        title=doc.title,
        mime_type=doc.mime_type,
        size=doc.size,
        page_count=doc.page_count,
        origin=doc.origin,
        parent_id=doc.parent_id,
        rendition_of_id=doc.rendition_of_id,
        owner_id=doc.owner_id,
        created_at=doc.created_at,
    )


def _with_dependents(doc: Document) -> list[Document]:
    found = [doc]
    for dependent in [*doc.children.all(), *doc.renditions.all()]:
        found.extend(_with_dependents(dependent))
    return found
