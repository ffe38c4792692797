"""Writes on transformation orders: create (validated), run on a worker, delete."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from documents import services as document_services
from documents.ids import child_id, new_document_id, new_order_id
from documents.models import Document
from documents.pdf.types import EngineError, PageRange, SourceElement
from documents.selectors import documents_visible
from orders import engine, lifecycle, tasks
from orders.models import TransformationOrder
from orders.selectors import order_get
from transformsvc.problems import InvalidInput


def _limit(name: str) -> int:
    return int(settings.TRANSFORMSVC[name])


def _check_documents(
    request: dict[str, Any], owner_id: int | None
) -> dict[str, Document]:
    """Every referenced document exists, is a PDF, and every page reference fits it."""
    errors: dict[str, list[str]] = {}
    details = request["transformationDetails"]
    wanted = {
        el["documentId"]["id"] for d in details for el in d["transformationElements"]
    }
    docs = {d.id: d for d in documents_visible(owner_id).filter(pk__in=wanted)}
    elements = 0
    for i, detail in enumerate(details):
        for j, element in enumerate(detail["transformationElements"]):
            elements += 1
            where = f"transformationDetails[{i}].transformationElements[{j}]"
            doc = docs.get(element["documentId"]["id"])
            if doc is None:
                errors[f"{where}.documentId"] = [
                    f"no document with id {element['documentId']['id']!r}"
                ]
                continue
            if not doc.page_count:
                errors[f"{where}.documentId"] = [
                    f"document {doc.id!r} is not a readable PDF"
                ]
                continue
            for k, sel in enumerate(element.get("pagesSelectionList") or []):
                if sel["maxPage"] > doc.page_count:
                    errors[f"{where}.pagesSelectionList[{k}].maxPage"] = [
                        f"page {sel['maxPage']} is past the end of document {doc.id!r} "
                        f"({doc.page_count} pages)"
                    ]
    if len(details) > _limit("MAX_OUTPUTS"):
        errors["transformationDetails"] = [
            f"at most {_limit('MAX_OUTPUTS')} outputs per order"
        ]
    if elements > _limit("MAX_ELEMENTS"):
        errors["transformationDetails"] = [
            f"at most {_limit('MAX_ELEMENTS')} elements per order"
        ]
    annotations = (request.get("annotations") or {}).get("annotations") or []
    if len(annotations) > _limit("MAX_ANNOTATIONS"):
        errors["annotations.annotations"] = [
            f"at most {_limit('MAX_ANNOTATIONS')} annotations per order"
        ]
    for n, item in enumerate(annotations):
        doc = docs.get(item["documentId"]["id"])
        where = f"annotations.annotations[{n}]"
        if doc is None:
            errors[f"{where}.documentId"] = [
                f"document {item['documentId']['id']!r} is not one of the order's documents"
            ]
        elif doc.page_count and item["page"] >= doc.page_count:
            errors[f"{where}.page"] = [
                f"page {item['page']} (counted from 0) does not exist in document {doc.id!r} "
                f"({doc.page_count} pages)"
            ]
    if errors:
        first = next(iter(errors))
        raise InvalidInput(f"{first}: {errors[first][0]}", errors=errors)
    return docs


def order_create(
    *, request: dict[str, Any], owner_id: int | None = None
) -> TransformationOrder:
    """Validate against the stored documents, save the order QUEUED, enqueue on commit."""
    docs = _check_documents(request, owner_id)
    lifecycle.ensure_capacity()
    with transaction.atomic():
        order = TransformationOrder.objects.create(
            id=new_order_id(),
            format=request["format"],
            request={
                "transformationDetails": request["transformationDetails"],
                "annotations": request["annotations"],
            },
            input_count=len(docs),
            owner_id=owner_id,
        )
        tasks.enqueue_on_commit(tasks.TRANSFORMATION_TASK, order.id)
    return order


def order_delete(*, order_id: str, owner_id: int | None = None) -> None:
    """Remove an order; a running one is removed, its results discarded when it ends."""
    order = order_get(order_id, owner_id)
    order.delete()


def order_run(*, order_id: str) -> None:
    """Worker side: build every output outside transactions, store, finish."""
    lifecycle.run(TransformationOrder, order_id, _build_and_store)


@contextmanager
def _sources(order: TransformationOrder) -> Iterator[dict[str, Path]]:
    """Local paths of the order's source documents, keyed by id."""
    ids = {
        el["documentId"]["id"]
        for d in order.request["transformationDetails"]
        for el in d["transformationElements"]
    }
    docs = {d.id: d for d in Document.objects.filter(pk__in=ids)}
    missing = sorted(ids - docs.keys())
    if missing:
        raise EngineError(f"document {missing[0]!r} was deleted before the order ran")
    with ExitStack() as stack:
        yield {
            i: stack.enter_context(
                document_services.local_path(document_services.pdf_of(d))
            )
            for i, d in docs.items()
        }


def _elements(detail: dict[str, Any], paths: dict[str, Path]) -> list[SourceElement]:
    out = []
    for el in detail["transformationElements"]:
        doc_id = el["documentId"]["id"]
        ranges = el.get("pagesSelectionList")
        out.append(
            SourceElement(
                key=doc_id,
                path=str(paths[doc_id]),
                title=el.get("documentTitle"),
                ranges=None
                if not ranges
                else tuple(PageRange(r["minPage"], r["maxPage"]) for r in ranges),
            )
        )
    return out


def _build_and_store(order: TransformationOrder) -> tuple[Document, dict[str, Any]]:
    details = order.request["transformationDetails"]
    annotations = engine.annotations_of(order.request)
    result_id = new_document_id()
    with _sources(order) as paths, ExitStack() as stack:
        outputs = []
        for detail in details:
            path = stack.enter_context(document_services.temp_path(".out"))
            pages = engine.build_output(
                order.format, _elements(detail, paths), annotations, path, stack
            )
            outputs.append((detail.get("documentTitle"), path, pages))
        page_total = sum(p for _, _, p in outputs)
        if len(outputs) == 1:
            title, path, _ = outputs[0]
            result = _store(order, path, result_id, title)
            return result, {"result_document": result, "page_count": page_total}
        container_path = stack.enter_context(document_services.temp_path(".zip"))
        engine.zip_outputs(
            [(t, p) for t, p, _ in outputs], container_path, order.format
        )
        result = document_services.document_store_result(
            path=container_path,
            document_id=result_id,
            title=None,
            owner_id=order.owner_id,
            mime_type="application/zip",
        )
        output_ids = []
        for n, (title, path, _) in enumerate(outputs):
            child = _store(order, path, child_id(result_id, n), title, parent=result)
            output_ids.append(child.id)
        return result, {
            "result_document": result,
            "output_ids": output_ids,
            "page_count": page_total,
        }


def _store(
    order: TransformationOrder,
    path: Path,
    document_id: str,
    title: str | None,
    parent: Document | None = None,
) -> Document:
    """Store an output (moved into storage, so `path` is gone afterwards)."""
    pdf_fdf = order.format == TransformationOrder.Format.PDF_FDF
    fdf = engine.fdf_of(path) if pdf_fdf else None  # read before the file moves
    doc = document_services.document_store_result(
        path=path,
        document_id=document_id,
        title=title,
        owner_id=order.owner_id,
        parent=parent,
    )
    if fdf is not None:
        with document_services.temp_path(".fdf") as fdf_path:
            fdf_path.write_bytes(fdf)
            document_services.document_store_result(
                path=fdf_path,
                document_id=new_document_id(),
                title=title,
                owner_id=order.owner_id,
                mime_type="application/vnd.fdf",
                rendition_of=doc,
            )
    return doc
