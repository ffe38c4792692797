"""Comparisons: the synchronous text difference and comparison orders on workers."""

from __future__ import annotations

from django.db import transaction

from comparisons.models import ComparisonOrder
from comparisons.specs import ComparisonSpec
from documents import services as document_services
from documents.ids import new_document_id, new_order_id
from documents.models import Document
from documents.pdf import compare
from documents.pdf.types import CompareStyle, EngineError, TextChange
from documents.selectors import document_get
from documents.storage import ensure_disk_space, pdf_path, temp_path
from jobs import inputs, lifecycle
from jobs.lifecycle import Outcome
from jobs.registry import kind_of
from jobs.tasks import enqueue_on_commit
from transformsvc.problems import InvalidInput, ServiceError


def _pdf(
    document_id: str, owner_id: int | None, field: str, *, missing: str = "400"
) -> Document:
    """A readable PDF document; an unknown id is a 400 naming `field`, or the
    404 itself when `missing` is "404" (GET /difference, as the original)."""
    try:
        doc = document_get(document_id, owner_id)
    except ServiceError as exc:
        if missing == "404":
            raise
        raise InvalidInput(str(exc), errors={field: [str(exc)]}) from exc
    if not doc.page_count:
        raise InvalidInput(
            f"document {document_id!r} is not a readable PDF",
            errors={field: ["not a readable PDF"]},
        )
    return doc


def _labels(left: Document, right: Document) -> tuple[str, str]:
    """How the engine names the two documents in its errors."""
    return f"document {left.id!r}", f"document {right.id!r}"


def text_difference(
    *, left_id: str, right_id: str, owner_id: int | None = None
) -> list[TextChange]:
    """Word-level changes from the left document to the right one."""
    left = _pdf(left_id, owner_id, "leftDocumentId", missing="404")
    right = _pdf(right_id, owner_id, "rightDocumentId", missing="404")
    with pdf_path(left) as lp, pdf_path(right) as rp:
        try:
            return compare.text_diff(str(lp), str(rp), labels=_labels(left, right))
        except EngineError as exc:
            raise InvalidInput(str(exc)) from exc


def comparison_create(
    *,
    spec: ComparisonSpec,
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> ComparisonOrder:
    left = _pdf(spec.left_document_id, owner_id, "leftDocumentId")
    right = _pdf(spec.right_document_id, owner_id, "rightDocumentId")
    ensure_disk_space()
    lifecycle.ensure_capacity()
    uses = [inputs.InputUse(d.id, d.page_count, d.size) for d in (left, right)]
    with transaction.atomic():
        order = ComparisonOrder.objects.create(
            id=new_order_id(),
            left_document_id=left.id,
            right_document_id=right.id,
            fuzz=spec.fuzz,
            highlight_color=spec.highlight_color,
            lowlight_color=spec.lowlight_color,
            owner_id=owner_id,
            callback_url=callback_url,
            **inputs.totals(uses),
        )
        inputs.record(order, uses)
        enqueue_on_commit(kind_of(ComparisonOrder).task, order.id)
    return order


def comparison_run(*, order_id: str) -> None:
    """Worker side: render both documents, paint the differences, store the target."""
    lifecycle.run(ComparisonOrder, order_id, _build_target)


def _build_target(order: ComparisonOrder) -> Outcome:
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
    with pdf_path(left) as lp, pdf_path(right) as rp, temp_path(".pdf") as out:
        compare.pixel_compare(
            str(lp), str(rp), str(out), style, labels=_labels(left, right)
        )
        target = document_services.document_store_result(
            path=out,
            document_id=new_document_id(),
            title=f"comparison {order.id}",
            owner_id=order.owner_id,
        )
    return document_services.result_outcome(target, target_document=target)
