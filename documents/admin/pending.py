"""Redaction areas of orders, for the viewer: those of the orders still waiting
to redact a document (a reviewer sees what will be removed before it is), and
every annotation of one chosen order (`?order=<id>`, from the order's page).

Orders are reached through the jobs registry (the documents app imports no order
app): a kind whose orders keep their request as the interface's JSON (`request`,
with `annotations` {annotations: [...]}) and say whether they redact (`redacts`)
has areas to draw; the others have none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from documents.admin.overlays import REDACTIONS, Shape, from_annotation
from documents.models import Document
from jobs.models import OrderBase, OrderInput
from jobs.registry import kinds
from jobs.states import State

# Orders that took the document, newest first, looked at (the index on
# document_id, queued_at): older pending orders are rare and long failed.
LOOKED_AT = 200


def _drawable(model: type[OrderBase]) -> bool:
    names = {f.name for f in model._meta.get_fields()}
    return {"request", "redacts"} <= names


def _items(order: OrderBase) -> list[Mapping[str, Any]]:
    request = getattr(order, "request", None)
    if not isinstance(request, Mapping):
        return []
    block = request.get("annotations") or {}
    items = block.get("annotations") if isinstance(block, Mapping) else None
    return [i for i in items or [] if isinstance(i, Mapping)]


def _on(item: Mapping[str, Any], document_id: str) -> bool:
    target = item.get("documentId")
    if isinstance(target, Mapping):
        target = target.get("id")
    return target == document_id


def shapes_of(
    order: OrderBase, document_id: str, *, only_redactions: bool
) -> list[Shape]:
    source = f"order {order.pk[:8]}…, {order.state}"
    found = []
    for item in _items(order):
        if not _on(item, document_id):
            continue
        shape = from_annotation(item, source)
        if shape is not None and (shape.layer == REDACTIONS or not only_redactions):
            found.append(shape)
    return found


def pending_redactions(doc: Document) -> list[Shape]:
    """The areas that the live orders still QUEUED or PROCESSING will remove
    from `doc`."""
    rows = list(
        OrderInput.objects.filter(document_id=doc.id)
        .order_by("-queued_at")
        .values_list("kind", "order_id")[:LOOKED_AT]
    )
    found: list[Shape] = []
    for kind in kinds():
        ids = [order_id for name, order_id in rows if name == kind.name]
        if not ids or not _drawable(kind.model):
            continue
        # `redacts` is a field of the kinds `_drawable` lets through.
        redacting: dict[str, Any] = {"redacts": True}
        waiting = kind.model.objects.filter(
            pk__in=ids, state__in=[State.QUEUED, State.PROCESSING], **redacting
        )
        for order in waiting:
            found.extend(shapes_of(order, doc.id, only_redactions=True))
    return found


def order_shapes(doc: Document, order_id: str) -> tuple[OrderBase | None, list[Shape]]:
    """The order `order_id` (of any kind, deleted ones too) and what it draws or
    removes on `doc`."""
    for kind in kinds():
        if not _drawable(kind.model):
            continue
        order = kind.model.history.filter(pk=order_id).first()
        if order is not None:
            return order, shapes_of(order, doc.id, only_redactions=False)
    return None, []
