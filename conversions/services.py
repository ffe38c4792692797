"""Writes on conversion orders: create, run on a worker, react to failures."""

from __future__ import annotations

from collections.abc import Sequence

from conversions import build
from conversions.models import ConversionOrder
from conversions.specs import ConversionSpec
from conversions.targets import refusal
from documents import renditions
from documents.models import Document
from documents.selectors import document_get
from engines.errors import EngineError
from jobs import inputs, lifecycle, queues
from jobs.lifecycle import Outcome
from jobs.queueing import admit, order_queue
from transformsvc.problems import InvalidInput


def conversion_create(
    *,
    spec: ConversionSpec,
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> ConversionOrder:
    """Queue the conversion of a visible document (404 when there is none); a
    conversion it cannot make is refused at once, naming those it can."""
    doc = document_get(spec.document_id, owner_id)
    refused = refusal(doc, spec.format)
    if refused:
        raise InvalidInput(
            refused, errors={"format": [refused]}, code="conversion_impossible"
        )
    admit()
    return conversion_queue(
        doc, spec.format, owner_id=owner_id, automatic=False, callback_url=callback_url
    )


def conversion_queue(
    doc: Document,
    fmt: str,
    *,
    owner_id: int | None,
    automatic: bool,
    callback_url: str | None = None,
) -> ConversionOrder:
    """A QUEUED conversion of `doc` to `fmt`; `automatic` for the rendition an
    upload is owed (in the transaction that stores it)."""
    return order_queue(
        ConversionOrder,
        owner_id=owner_id,
        callback_url=callback_url,
        uses=[inputs.InputUse(doc.id, doc.page_count, doc.size)],
        id_suffix=fmt,
        document_id=doc.id,
        format=fmt,
        automatic=automatic,
    )


def conversion_queues(orders: Sequence[ConversionOrder]) -> list[str]:
    """The queue of each order: OCR for an automatic conversion that only has
    scans to recognise (its document's pages are readable already: a scanned
    PDF, an image made a PDF at upload); main for the rest, which a client
    waits on."""
    wanted = {order.document_id for order in orders if order.automatic}
    recognising = set(
        Document.objects.filter(
            pk__in=wanted,
            rendition_state=Document.Rendition.READY,
            text_state=Document.Text.PENDING,
        ).values_list("pk", flat=True)
    )
    return [
        queues.OCR
        if order.automatic and order.document_id in recognising
        else queues.MAIN
        for order in orders
    ]


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
            result = build.make_readable(doc)
        else:
            result = build.convert(doc, order.format)
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
            build.rendition_delete(result)

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


def results_delete(order: ConversionOrder) -> int:
    """Delete the document a conversion made, unless it is what its source is
    read from (the PDF of an Office file, made for the upload) or the source
    itself (a conversion to its own format)."""
    result = order.result_document_id
    if result is None or order.automatic or result == order.document_id:
        return 0
    if Document.objects.filter(pk=order.document_id, pdf_document_id=result).exists():
        return 0
    build.rendition_delete_by_id(result)
    return 1
