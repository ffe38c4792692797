"""Comparisons: the synchronous text difference and comparison orders on workers."""

from __future__ import annotations

from comparisons.models import ComparisonOrder
from comparisons.specs import ComparisonSpec
from documents import services as document_services
from documents.ids import new_document_id
from documents.models import Document
from documents.renditions import wait_readable
from documents.selectors import document_get
from documents.storage import pdf_path, temp_path
from engines.errors import EngineError
from engines.pdf import compare
from engines.pdf.types import CompareStyle, TextChange
from jobs import inputs, lifecycle
from jobs.lifecycle import Outcome
from jobs.queueing import admit, order_queue
from transformsvc.problems import Busy, InvalidInput, NotFound, ServiceError


def _pdf(
    document_id: str, owner_id: int | None, field: str, *, missing: str = "400"
) -> Document:
    """A readable PDF document, waited for while it is being converted; an unknown
    id is a 400 naming `field`, or the 404 itself when `missing` is "404" (GET
    /difference, as the original)."""
    try:
        doc = document_get(document_id, owner_id)
    except NotFound as exc:
        if missing == "404":
            raise
        raise InvalidInput(
            str(exc), errors={field: [str(exc)]}, code="unknown_document"
        ) from exc
    try:
        return wait_readable(doc)
    except Busy:
        raise
    except ServiceError as exc:
        raise InvalidInput(
            exc.detail,
            errors={field: ["not a readable PDF"]},
            code="unreadable_document",
        ) from exc


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
        return compare.text_diff(str(lp), str(rp), labels=_labels(left, right))


def comparison_create(
    *,
    spec: ComparisonSpec,
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> ComparisonOrder:
    left = _pdf(spec.left_document_id, owner_id, "leftDocumentId")
    right = _pdf(spec.right_document_id, owner_id, "rightDocumentId")
    admit()
    return order_queue(
        ComparisonOrder,
        owner_id=owner_id,
        callback_url=callback_url,
        uses=[inputs.InputUse(d.id, d.page_count, d.size) for d in (left, right)],
        left_document_id=left.id,
        right_document_id=right.id,
        fuzz=spec.fuzz,
        highlight_color=spec.highlight_color,
        lowlight_color=spec.lowlight_color,
    )


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


def results_delete(order: ComparisonOrder) -> int:
    """Delete the highlighted PDF a comparison made."""
    if order.target_document_id is None:
        return 0
    document_services.document_delete(
        document_id=order.target_document_id, missing_ok=True
    )
    return 1
