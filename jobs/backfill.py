"""Filling the facts of orders made before they were recorded at creation (used
by the kinds' data migrations, on their historical models)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from jobs.errors import classify

BATCH = 2000

# (document id, pages taken or None for the whole document) of each use.
Uses = Callable[[Any], Sequence[tuple[str, int | None]]]


def _batches(model: Any) -> Iterator[list[Any]]:
    last = ""
    while True:
        rows = list(model.objects.filter(pk__gt=last).order_by("pk")[:BATCH])
        if not rows:
            return
        yield rows
        last = rows[-1].pk


def backfill(
    apps: Any,
    model: Any,
    kind: str,
    uses_of: Uses,
    flags_of: Callable[[Any], dict[str, Any]] | None = None,
) -> None:
    """For every order of `model` (a historical model): its OrderInput rows, input
    totals, error category and (`flags_of`) the kind's own flag columns."""
    document = apps.get_model("documents", "Document")
    order_input = apps.get_model("jobs", "OrderInput")
    fields = ["input_pages", "input_bytes", "error_category"]
    for rows in _batches(model):
        wanted = {doc_id for row in rows for doc_id, _ in uses_of(row)}
        docs = {
            d["id"]: d
            for d in document.objects.filter(pk__in=wanted).values(
                "id", "page_count", "size"
            )
        }
        inputs = []
        for row in rows:
            merged: dict[str, list[int | None]] = {}
            for doc_id, pages in uses_of(row):
                doc = docs.get(doc_id, {})
                taken = pages if pages is not None else doc.get("page_count")
                entry = merged.setdefault(doc_id, [0, doc.get("size")])
                entry[0] = (
                    None if entry[0] is None or taken is None else entry[0] + taken
                )
            for position, (doc_id, (pages, size)) in enumerate(merged.items()):
                inputs.append(
                    order_input(
                        kind=kind,
                        order_id=row.pk,
                        document_id=doc_id,
                        position=position,
                        pages=pages,
                        bytes=size,
                        queued_at=row.queued_at,
                    )
                )
            taken_pages = [p for p, _ in merged.values()]
            row.input_pages = None if None in taken_pages else sum(taken_pages)
            row.input_bytes = sum(size or 0 for _, size in merged.values())
            row.error_category = classify(row.error_message)
            for name, value in (flags_of(row) if flags_of else {}).items():
                setattr(row, name, value)
        extra = list(flags_of(rows[0])) if flags_of else []
        model.objects.bulk_update(rows, [*fields, *extra])
        order_input.objects.bulk_create(inputs, ignore_conflicts=True)
