"""Writes on transformation orders: create (validated), run on a worker."""

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
from documents.pdf.types import EngineError, SourceElement
from documents.renditions import wait_readable
from documents.selectors import documents_visible
from documents.storage import ensure_disk_space, pdf_path, temp_path
from jobs import inputs, lifecycle
from jobs.lifecycle import Outcome
from jobs.registry import kind_of
from jobs.tasks import enqueue_on_commit
from orders import engine
from orders.models import TransformationOrder
from orders.specs import OrderSpec, OutputSpec, operations_of, pages_taken
from transformsvc.problems import Busy, InvalidInput, ServiceError


def _limit(name: str) -> int:
    return int(settings.TRANSFORMSVC[name])


def _check_documents(spec: OrderSpec, owner_id: int | None) -> dict[str, Document]:
    """Every referenced document exists, is a PDF, and every page reference fits it."""
    errors: dict[str, list[str]] = {}
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
                errors[f"{where}.documentId"] = [
                    f"no document with id {element.document_id!r}"
                ]
                continue
            if doc.id in unreadable:
                errors[f"{where}.documentId"] = [unreadable[doc.id]]
                continue
            for k, selection in enumerate(element.ranges or ()):
                if selection.last > (doc.page_count or 0):
                    errors[f"{where}.pagesSelectionList[{k}].maxPage"] = [
                        f"page {selection.last} is past the end of document "
                        f"{doc.id!r} ({doc.page_count} pages)"
                    ]
    if len(spec.outputs) > _limit("MAX_OUTPUTS"):
        errors["transformationDetails"] = [
            f"at most {_limit('MAX_OUTPUTS')} outputs per order"
        ]
    if elements > _limit("MAX_ELEMENTS"):
        errors["transformationDetails"] = [
            f"at most {_limit('MAX_ELEMENTS')} elements per order"
        ]
    if len(spec.annotations) > _limit("MAX_ANNOTATIONS"):
        errors["annotations.annotations"] = [
            f"at most {_limit('MAX_ANNOTATIONS')} annotations per order"
        ]
    for n, annotation in enumerate(spec.annotations):
        doc = docs.get(annotation.document_key)
        where = f"annotations.annotations[{n}]"
        if doc is None:
            errors[f"{where}.documentId"] = [
                f"document {annotation.document_key!r} is not one of the order's "
                "documents"
            ]
        elif doc.page_count and annotation.page >= doc.page_count:
            errors[f"{where}.page"] = [
                f"page {annotation.page} (counted from 0) does not exist in document "
                f"{doc.id!r} ({doc.page_count} pages)"
            ]
    if errors:
        first = next(iter(errors))
        raise InvalidInput(f"{first}: {errors[first][0]}", errors=errors)
    return docs


def order_create(
    *,
    spec: OrderSpec,
    request: dict[str, Any],
    owner_id: int | None = None,
    callback_url: str | None = None,
) -> TransformationOrder:
    """Validate `spec` against the stored documents, save the order QUEUED with
    `request` (the normalised request it echoes), enqueue it on commit."""
    docs = _check_documents(spec, owner_id)
    ensure_disk_space()
    lifecycle.ensure_capacity()
    uses = _uses(spec, docs)
    with transaction.atomic():
        order = TransformationOrder.objects.create(
            id=new_order_id(),
            format=spec.format,
            request={
                "transformationDetails": request["transformationDetails"],
                "annotations": request["annotations"],
            },
            input_count=len(docs),
            owner_id=owner_id,
            callback_url=callback_url,
            **operations_of(spec),
            **inputs.totals(uses),
        )
        inputs.record(order, uses)
        enqueue_on_commit(kind_of(TransformationOrder).task, order.id)
    return order


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


def order_run(*, order_id: str) -> None:
    """Worker side: build every output outside transactions, store, finish."""
    lifecycle.run(TransformationOrder, order_id, _build_and_store)


@contextmanager
def _sources(spec: OrderSpec) -> Iterator[dict[str, Path]]:
    """Local paths of the order's source PDFs, keyed by document id."""
    docs = {d.id: d for d in Document.objects.filter(pk__in=spec.document_ids)}
    missing = sorted(spec.document_ids - docs.keys())
    if missing:
        raise EngineError(f"document {missing[0]!r} was deleted before the order ran")
    with ExitStack() as stack:
        yield {i: stack.enter_context(pdf_path(d)) for i, d in docs.items()}


def _elements(output: OutputSpec, paths: dict[str, Path]) -> list[SourceElement]:
    return [
        SourceElement(
            key=element.document_id,
            path=str(paths[element.document_id]),
            title=element.title,
            ranges=element.ranges,
        )
        for element in output.elements
    ]


def _build_and_store(order: TransformationOrder) -> Outcome:
    spec = order.spec
    annotations = engine.annotations_of(spec.annotations)
    result_id = new_document_id()
    with _sources(spec) as paths, ExitStack() as stack:
        outputs = []
        for output in spec.outputs:
            path = stack.enter_context(temp_path(".out"))
            built = engine.build_output(
                spec.format, _elements(output, paths), annotations, path, stack
            )
            outputs.append((output.title, path, built))
        facts = {
            "page_count": sum(b.pages for _, _, b in outputs),
            "redaction_verified": engine.verified_of([b for _, _, b in outputs]),
        }
        if len(outputs) == 1:
            title, path, _ = outputs[0]
            result = _store(order, path, result_id, title)
            return document_services.result_outcome(
                result, result_document=result, **facts
            )
        container_path = stack.enter_context(temp_path(".zip"))
        engine.zip_outputs([(t, p) for t, p, _ in outputs], container_path, spec.format)
        result = document_services.document_store_result(
            path=container_path,
            document_id=result_id,
            title=None,
            owner_id=order.owner_id,
            mime_type="application/zip",
            is_container=True,
        )
        output_ids = []
        for n, (title, path, _) in enumerate(outputs):
            child = _store(
                order, path, child_id(result_id, n), title, parent=result, part=n
            )
            output_ids.append(child.id)
        return document_services.result_outcome(
            result, result_document=result, output_ids=output_ids, **facts
        )


def _store(
    order: TransformationOrder,
    path: Path,
    document_id: str,
    title: str | None,
    parent: Document | None = None,
    part: int | None = None,
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
        part=part,
    )
    if fdf is not None:
        with temp_path(".fdf") as fdf_path:
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
