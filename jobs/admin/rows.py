"""What the order admins read about a page of orders in a few queries: each
order's inputs (OrderInput) and its output documents, as DocumentCards."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import models

from jobs.admin.documents import DocumentCard, documents
from jobs.models import OrderBase, OrderInput
from jobs.registry import kind_of

# Foreign keys of OrderBase itself; every other one a kind adds names a document
# the order made (result_document, target_document ...).
_BASE_KEYS = frozenset({"owner", "retry_of"})


@dataclass
class OrderDocuments:
    inputs: list[tuple[DocumentCard, OrderInput]] = field(default_factory=list)
    outputs: list[DocumentCard] = field(default_factory=list)


def output_fields(model: type[OrderBase]) -> list[str]:
    """The attnames of the foreign keys naming the documents an order made."""
    return [
        f.attname
        for f in model._meta.concrete_fields
        if isinstance(f, models.ForeignKey) and f.name not in _BASE_KEYS
    ]


def output_ids(order: OrderBase) -> list[str]:
    return [v for name in output_fields(type(order)) if (v := getattr(order, name))]


def load(orders: Iterable[OrderBase], *, thumb_width: int) -> dict[str, OrderDocuments]:
    """The documents of `orders` (of one kind), by order id."""
    orders = list(orders)
    if not orders:
        return {}
    kind = kind_of(type(orders[0])).name
    used = defaultdict(list)
    for row in OrderInput.objects.filter(
        kind=kind, order_id__in=[o.pk for o in orders]
    ).order_by("position"):
        used[row.order_id].append(row)
    ids = {row.document_id for rows in used.values() for row in rows}
    ids.update(i for o in orders for i in output_ids(o))
    cards = documents().cards(ids, thumb_width=thumb_width)
    return {
        o.pk: OrderDocuments(
            inputs=[(cards[row.document_id], row) for row in used[o.pk]],
            outputs=[cards[i] for i in output_ids(o)],
        )
        for o in orders
    }
