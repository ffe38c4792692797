"""Writes on transformation orders: create (validated against the stored
documents), queued for a worker (whose build is orders/build.py)."""

from __future__ import annotations

from typing import Any

from documents.models import Document
from documents.renditions import wait_readable
from documents.selectors import documents_visible
from documents.services import document_delete
from jobs import inputs
from jobs.queueing import admit, order_queue
from jobs.specs import to_json
from orders.models import TransformationOrder
from orders.specs import OrderSpec, operations_of, pages_taken
from transformsvc.conf import service
from transformsvc.problems import Busy, FieldErrors, NotFound, ServiceError


def check_documents(spec: OrderSpec, owner_id: int | None) -> dict[str, Document]:
    """Every referenced document exists, is a PDF, and every page reference fits it."""
    errors = FieldErrors()
    docs = {
        d.id: d for d in documents_visible(owner_id).filter(pk__in=spec.document_ids)
    }
    unreadable = {}
    for doc_id, found in docs.items():
        try:
            docs[doc_id] = wait_readable(found)  # a conversion under way: waited for
        except Busy:
            raise
        except ServiceError as exc:
            unreadable[doc_id] = exc.detail
    elements = 0
    for i, output in enumerate(spec.outputs):
        for j, element in enumerate(output.elements):
            elements += 1
            where = f"transformationDetails[{i}].transformationElements[{j}]"
            doc = docs.get(element.document_id)
            if doc is None:
                errors.add(
                    f"{where}.documentId",
                    f"no document with id {element.document_id!r}",
                    "unknown_document",
                )
                continue
            if doc.id in unreadable:
                errors.add(
                    f"{where}.documentId", unreadable[doc.id], "unreadable_document"
                )
                continue
            for k, selection in enumerate(element.ranges or ()):
                if selection.last > (doc.page_count or 0):
                    errors.add(
                        f"{where}.pagesSelectionList[{k}].maxPage",
                        f"page {selection.last} is past the end of document "
                        f"{doc.id!r} ({doc.page_count} pages)",
                        "page_out_of_range",
                    )
    if len(spec.outputs) > service().max_outputs:
        errors.add(
            "transformationDetails",
            f"at most {service().max_outputs} outputs per order",
            "over_limit",
        )
    if elements > service().max_elements:
        errors.add(
            "transformationDetails",
            f"at most {service().max_elements} elements per order",
            "over_limit",
        )
    if len(spec.annotations) > service().max_annotations:
        errors.add(
            "annotations.annotations",
            f"at most {service().max_annotations} annotations per order",
            "over_limit",
        )
    for n, annotation in enumerate(spec.annotations):
        doc = docs.get(annotation.document_key)
        where = f"annotations.annotations[{n}]"
        if doc is None:
            errors.add(
                f"{where}.documentId",
                f"document {annotation.document_key!r} is not one of the order's "
                "documents",
                "unknown_document",
            )
        elif doc.page_count and annotation.page >= doc.page_count:
            errors.add(
                f"{where}.page",
                f"page {annotation.page} (counted from 0) does not exist in document "
                f"{doc.id!r} ({doc.page_count} pages)",
                "page_out_of_range",
            )
    _check_operations(spec, docs, owner_id, errors)
    errors.raise_any()
    return docs


def _check_operations(
    spec: OrderSpec, docs: dict[str, Document], owner_id: int | None, errors: Any
) -> None:
    """Stamp images name visible documents; page ranges fit their output."""
    images = set(
        documents_visible(owner_id)
        .filter(pk__in=spec.image_ids)
        .values_list("id", flat=True)
    )
    for output in spec.outputs:
        if any(element.document_id not in docs for element in output.elements):
            continue  # its unknown document is the fault already named
        pages = sum(
            pages_taken(element, docs[element.document_id].page_count) or 0
            for element in output.elements
        )
        for op in output.operations:
            image = getattr(op.spec, "image", None)
            if image and image not in images:
                errors.add(
                    f"{op.path}.image",
                    f"no document with id {image!r}",
                    "unknown_document",
                )
            for k, selection in enumerate(getattr(op.spec, "pages", None) or ()):
                if selection.last > pages:
                    errors.add(
                        f"{op.path}.pages[{k}].maxPage",
                        f"page {selection.last} is past the end of the output "
                        f"({pages} pages)",
                        "page_out_of_range",
                    )


def order_create(
    *,
    spec: OrderSpec,
    request: dict[str, Any],
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> TransformationOrder:
    """Validate `spec` against the stored documents, save the order QUEUED with
    `request` (the normalised request it echoes), enqueue it on commit."""
    docs = check_documents(spec, owner_id)
    admit()
    return order_queue(
        TransformationOrder,
        owner_id=owner_id,
        callback_url=callback_url,
        uses=_uses(spec, docs),
        format=spec.format,
        request={
            key: request[key]
            for key in (
                "transformationDetails",
                "annotations",
                "operations",
                "keepAttachments",
                "redactionRules",
                "acceptedMatches",
            )
            if key in request
        },
        spec_json=to_json(spec),
        input_count=len(docs),
        **operations_of(spec),
    )


def _uses(spec: OrderSpec, docs: dict[str, Document]) -> list[inputs.InputUse]:
    """Every element's use of its document: pages taken, the document's size."""
    return [
        inputs.InputUse(
            element.document_id,
            pages_taken(element, docs[element.document_id].page_count),
            docs[element.document_id].size,
        )
        for output in spec.outputs
        for element in output.elements
    ]


def redaction_record(order: TransformationOrder) -> dict[str, Any]:
    """The order's redaction record; 404 when it has none (it redacts nothing,
    has not ended, or failed: nothing was delivered)."""
    if order.redaction_record is None:
        state = order.state
        raise NotFound(
            f"transformation order {order.id!r} has no redaction record "
            + (
                f"yet (it is {state})"
                if state in ("QUEUED", "PROCESSING")
                else "(it redacted nothing, or it failed and delivered nothing)"
            )
        )
    return dict(order.redaction_record)


def results_delete(order: TransformationOrder) -> int:
    """Delete the document an order made (a multi-output result with its parts)."""
    if order.result_document_id is None:
        return 0
    document_delete(document_id=order.result_document_id, missing_ok=True)
    return 1
