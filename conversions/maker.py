"""Conversions make the renditions documents are owed (documents.renditions.maker):
an upload that needs a worker gets an automatic conversion order to PDF, in the
transaction that stores it, like the original (its metadata lists the order)."""

from __future__ import annotations

from collections.abc import Collection

from conversions.models import ConversionOrder
from conversions.services import conversion_queue
from documents.models import Document
from jobs.states import FINAL_STATES


class ConversionMaker:
    def request(self, document: Document) -> None:
        conversion_queue(document, "pdf", owner_id=document.owner_id, automatic=True)

    def order_ids(self, document: Document) -> dict[str, str]:
        orders = ConversionOrder.objects.filter(document_id=document.id).order_by(
            "queued_at"
        )
        return {order.format: order.id for order in orders}

    def under_way(self, document_ids: Collection[str]) -> set[str]:
        return set(
            ConversionOrder.objects.filter(
                document_id__in=list(document_ids), automatic=True
            )
            .exclude(state__in=FINAL_STATES)
            .values_list("document_id", flat=True)
        )
