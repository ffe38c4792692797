"""The documents an order takes, recorded when it is created (`OrderInput` rows and
the order's input totals), so lists, searches and reports need not read requests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jobs.models import OrderBase, OrderInput
from jobs.registry import kind_of


@dataclass(frozen=True, slots=True)
class InputUse:
    """One use of a document by an order: the pages it takes (None: unknown) and
    the document's size in bytes."""

    document_id: str
    pages: int | None
    bytes: int | None


def merged(uses: Iterable[InputUse]) -> list[InputUse]:
    """One entry per document, in order of first use; pages add up."""
    found: dict[str, InputUse] = {}
    for use in uses:
        seen = found.get(use.document_id)
        if seen is None:
            found[use.document_id] = use
        else:
            pages = (
                None
                if seen.pages is None or use.pages is None
                else seen.pages + use.pages
            )
            found[use.document_id] = InputUse(use.document_id, pages, seen.bytes)
    return list(found.values())


def totals(uses: Sequence[InputUse]) -> dict[str, int | None]:
    """The order's `input_pages` and `input_bytes` (each document counted once)."""
    inputs = merged(uses)
    pages = [u.pages for u in inputs]
    return {
        "input_pages": None if None in pages else sum(p or 0 for p in pages),
        "input_bytes": sum(u.bytes or 0 for u in inputs),
    }


def record(order: OrderBase, uses: Sequence[InputUse]) -> None:
    """Store the OrderInput rows of a new `order` (in its creating transaction)."""
    kind = kind_of(type(order)).name
    OrderInput.objects.bulk_create(
        OrderInput(
            kind=kind,
            order_id=order.pk,
            document_id=use.document_id,
            position=position,
            pages=use.pages,
            bytes=use.bytes,
            queued_at=order.queued_at,
        )
        for position, use in enumerate(merged(uses))
    )
