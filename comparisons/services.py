"""Comparisons: the synchronous text difference and comparison orders on workers."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from comparisons.models import ComparisonOrder
from comparisons.selectors import comparison_get
from documents import services as document_services
from documents.ids import new_document_id, new_order_id
from documents.models import Document
from documents.pdf import compare
from documents.pdf.types import CompareStyle, EngineError, TextChange
from documents.selectors import document_get
from orders import lifecycle, tasks
from transformsvc.problems import InvalidInput, ServiceError


def _pdf(document_id: str, owner_id: int | None, field: str) -> Document:
    try:
        doc = document_get(document_id, owner_id)
    except ServiceError as exc:
        raise InvalidInput(str(exc), errors={field: [str(exc)]}) from exc
    if not doc.page_count:
        raise InvalidInput(
            f"document {document_id!r} is not a readable PDF",
            errors={field: ["not a readable PDF"]},
        )
    return doc


def text_difference(
    *, left_id: str, right_id: str, owner_id: int | None = None
) -> list[TextChange]:
    """Word-level changes from the left document to the right one."""
    left = _pdf(left_id, owner_id, "leftDocumentId")
    right = _pdf(right_id, owner_id, "rightDocumentId")
    with (
        document_services.local_path(document_services.pdf_of(left)) as lp,
        document_services.local_path(document_services.pdf_of(right)) as rp,
    ):
        try:
            return compare.text_diff(str(lp), str(rp))
        except EngineError as exc:
            raise InvalidInput(str(exc)) from exc


def comparison_create(
    *, request: dict[str, Any], owner_id: int | None = None
) -> ComparisonOrder:
    left = _pdf(request["leftDocumentId"], owner_id, "leftDocumentId")
    right = _pdf(request["rightDocumentId"], owner_id, "rightDocumentId")
    lifecycle.ensure_capacity()
    with transaction.atomic():
        order = ComparisonOrder.objects.create(
            id=new_order_id(),
            left_document_id=left.id,
            right_document_id=right.id,
            fuzz=request["fuzz"],
            highlight_color=request["highlightColor"],
            lowlight_color=request.get("lowlightColor") or "",
            owner_id=owner_id,
        )
        tasks.enqueue_on_commit(tasks.COMPARISON_TASK, order.id)
    return order


def comparison_delete(*, order_id: str, owner_id: int | None = None) -> None:
    comparison_get(order_id, owner_id).delete()


def comparison_run(*, order_id: str) -> None:
    """Worker side: render both documents, paint the differences, store the target."""
    lifecycle.run(ComparisonOrder, order_id, _build_target)


def _build_target(order: ComparisonOrder) -> tuple[Document, dict[str, Any]]:
    docs = {
        d.id: d
        for d in Document.objects.filter(
            pk__in=[order.left_document_id, order.right_document_id]
        )
    }
    for doc_id in (order.left_document_id, order.right_document_id):
        if doc_id not in docs:
            raise EngineError(
                f"document {doc_id!r} was deleted before the comparison ran"
            )
    style = CompareStyle(
        fuzz=order.fuzz,
        highlight=compare.parse_color(order.highlight_color),
        lowlight=compare.parse_color(order.lowlight_color)
        if order.lowlight_color
        else None,
    )
    left, right = docs[order.left_document_id], docs[order.right_document_id]
    with (
        document_services.local_path(document_services.pdf_of(left)) as lp,
        document_services.local_path(document_services.pdf_of(right)) as rp,
        document_services.temp_path(".pdf") as out,
    ):
        compare.pixel_compare(str(lp), str(rp), str(out), style)
        target = document_services.document_store_result(
            path=out,
            document_id=new_document_id(),
            title=f"comparison {order.id}",
            owner_id=order.owner_id,
        )
    return target, {"target_document": target}
