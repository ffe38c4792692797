"""Writes on conversion orders: create, run on a worker, react to failures."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from conversions.models import ConversionOrder
from conversions.specs import ConversionSpec
from documents import renditions
from documents.ids import new_order_id
from documents.models import Document
from documents.pdf.types import EngineError
from documents.selectors import document_get
from documents.storage import ensure_disk_space
from jobs import inputs, lifecycle
from jobs.lifecycle import Outcome
from jobs.registry import kind_of
from jobs.services import orders_delete_all
from jobs.tasks import enqueue_on_commit


def conversion_create(
    *,
    spec: ConversionSpec,
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> ConversionOrder:
    """Queue the conversion of a visible document (404 when there is none)."""
    doc = document_get(spec.document_id, owner_id)
    ensure_disk_space()
    lifecycle.ensure_capacity()
    return _create(
        doc, spec.format, owner_id=owner_id, automatic=False, callback_url=callback_url
    )


def rendition_order_create(sender: Any, *, document: Document, **kwargs: Any) -> None:
    """Answer `documents.signals.rendition_requested`: the document's PDF is made by
    a conversion order, like the original's (its metadata lists it)."""
    _create(document, "pdf", owner_id=document.owner_id, automatic=True)


def _create(
    doc: Document,
    fmt: str,
    *,
    owner_id: int | None,
    automatic: bool,
    callback_url: str | None = None,
) -> ConversionOrder:
    uses = [inputs.InputUse(doc.id, doc.page_count, doc.size)]
    with transaction.atomic():
        order = ConversionOrder.objects.create(
            id=new_order_id(),
            document_id=doc.id,
            format=fmt,
            automatic=automatic,
            owner_id=owner_id,
            callback_url=callback_url,
            **inputs.totals(uses),
        )
        inputs.record(order, uses)
        enqueue_on_commit(kind_of(ConversionOrder).task, order.id)
    return order


def conversions_delete_all(*, owner_id: int | None) -> int:
    """Delete every visible conversion order of the caller (their report rows
    stay); how many."""
    return orders_delete_all(ConversionOrder, owner_id=owner_id)


def conversion_run(*, order_id: str) -> None:
    """Worker side: convert outside transactions, then end the order."""
    lifecycle.run(ConversionOrder, order_id, _convert)


def _convert(order: ConversionOrder) -> Outcome:
    doc = Document.objects.filter(pk=order.document_id).first()
    if doc is None:
        raise EngineError(
            f"document {order.document_id!r} was deleted before the conversion ran"
        )
    try:
        if order.automatic:
            result = renditions.make_readable(doc)
        else:
            result = renditions.convert(doc, order.format)
    except Exception as exc:
        # Its file went with it: say so, not "internal error".
        if not Document.objects.filter(pk=doc.pk).exists():
            raise EngineError(
                f"document {order.document_id!r} was deleted while it was "
                "being converted"
            ) from exc
        raise
    made_here = result.pk != doc.pk and result.rendition_of_id == doc.pk

    def discard() -> None:
        # An automatic rendition belongs to its document, whatever became of the
        # order; a conversion asked for by a client goes with its order.
        if made_here and not order.automatic:
            renditions.rendition_delete(result)

    return Outcome(
        fields={
            "result_document": result,
            "page_count": result.page_count,
            "output_bytes": result.size,
        },
        discard=discard,
    )


def conversion_failed(order_id: str, message: str) -> None:
    """The machinery failed an order: a document whose PDF it was making can no
    longer become readable, and its readers must hear why."""
    order = ConversionOrder.history.filter(pk=order_id, automatic=True).first()
    if order is not None:
        renditions.rendition_failed(order.document_id, message)
