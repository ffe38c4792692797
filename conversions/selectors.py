"""Reads on conversion orders that other apps see through hooks."""

from __future__ import annotations

from conversions.models import ConversionOrder
from documents.models import Document


def order_ids_by_format(doc: Document) -> dict[str, str]:
    """{format: id} of the document's conversion orders, the latest per format
    (GET /documents/<id> reports it as `conversionOrderIds`)."""
    orders = ConversionOrder.objects.filter(document_id=doc.id).order_by("queued_at")
    return {order.format: order.id for order in orders}
