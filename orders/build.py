"""What a transformation order's worker builds: every output assembled, its
annotations and operations applied, stored; the outputs of a multi-output
order in a container. Runs outside transactions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from documents import services as document_services
from documents.ids import child_id, new_document_id
from documents.models import Document
from documents.selectors import pdf_of
from documents.storage import local_path, pdf_path, temp_path
from engines.errors import EngineError
from engines.pdf.layout import inspect_pdf
from engines.pdf.ops import OpsReport
from engines.pdf.types import SourceElement
from jobs import lifecycle
from jobs.lifecycle import Outcome
from orders import engine
from orders.matching import (
    Found,
    accepted,
    forgotten_texts,
    matches_of,
    redactions_of,
    scrubbed_of,
    text_hmac,
)
from orders.models import TransformationOrder
from orders.record import OutputFacts, record_of, sha256_of
from orders.specs import OrderSpec, OutputSpec, pages_read


def order_run(*, order_id: str) -> None:
    """Worker side: build every output outside transactions, store, finish."""
    lifecycle.run(TransformationOrder, order_id, _build_and_store)


Sources = tuple[dict[str, Document], dict[str, Path], dict[str, str]]


@contextmanager
def _sources(spec: OrderSpec) -> Iterator[Sources]:
    """The order's documents, local paths of its source PDFs, and of the files
    of its stamp images (as uploaded), keyed by document id."""
    wanted = spec.document_ids | spec.image_ids
    docs = {d.id: d for d in Document.objects.filter(pk__in=wanted)}
    missing = sorted(wanted - docs.keys())
    if missing:
        raise EngineError(f"document {missing[0]!r} was deleted before the order ran")
    with ExitStack() as stack:
        pdfs = {i: stack.enter_context(pdf_path(docs[i])) for i in spec.document_ids}
        images = {
            i: str(stack.enter_context(local_path(docs[i]))) for i in spec.image_ids
        }
        yield docs, pdfs, images


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


def _matches(
    spec: OrderSpec, docs: dict[str, Document], paths: dict[str, Path]
) -> Found:
    """The matches of the order's rules that it redacts."""
    counts = {key: doc.page_count or 0 for key, doc in docs.items()}
    return accepted(spec, matches_of(spec, paths, pages_read(spec, counts)))


def _build_and_store(order: TransformationOrder) -> Outcome:
    spec = order.spec
    result_id = new_document_id()
    with _sources(spec) as (docs, paths, images), ExitStack() as stack:
        found = _matches(spec, docs, paths)
        annotations = engine.annotations_of(
            [*spec.annotations, *redactions_of(spec, found)]
        )
        scrub = scrubbed_of(found)
        outputs = []
        bates_next: int | None = None
        for output in spec.outputs:
            path = stack.enter_context(temp_path(".out"))
            operations = engine.Operations(
                tuple(op.op() for op in output.operations),
                bates_next,
                images,
                keep_attachments=spec.keep_attachments,
                scrub=scrub,
                hash_text=text_hmac,
            )
            built = engine.build_output(
                spec.format,
                _elements(output, paths),
                annotations,
                path,
                stack,
                operations,
            )
            if built.operations is not None and built.operations.bates is not None:
                bates_next = built.operations.bates.last + 1
            outputs.append((output.title, path, built, _password(output)))
        hashes = [sha256_of(path) for _, path, _, _ in outputs]
        facts = {
            "page_count": sum(b.pages for _, _, b, _ in outputs),
            "redaction_verified": engine.verified_of([b for _, _, b, _ in outputs]),
            **_operation_facts([b.operations for _, _, b, _ in outputs]),
        }

        def record(ids: list[str]) -> dict[str, Any]:
            facts_of = [
                OutputFacts(n, title, ids[n], hashes[n], built.pages, built.evidence)
                for n, (title, _, built, _) in enumerate(outputs)
            ]
            return {
                "redaction_record": record_of(
                    spec, found, _inputs(spec, docs), facts_of
                ),
                **forgotten_texts(order.request, order.spec_json),
            }

        if len(outputs) == 1:
            title, path, _, password = outputs[0]
            result = _store(order, path, result_id, title, password=password)
            return document_services.result_outcome(
                result, result_document=result, **facts, **record([result.id])
            )
        container_path = stack.enter_context(temp_path(".zip"))
        engine.zip_outputs(
            [(t, p) for t, p, _, _ in outputs], container_path, spec.format
        )
        result = document_services.document_store_result(
            path=container_path,
            document_id=result_id,
            title=None,
            owner_id=order.owner_id,
            mime_type="application/zip",
            is_container=True,
        )
        output_ids = []
        for n, (title, path, _, password) in enumerate(outputs):
            child = _store(
                order,
                path,
                child_id(result_id, n),
                title,
                parent=result,
                part=n,
                password=password,
            )
            output_ids.append(child.id)
        return document_services.result_outcome(
            result,
            result_document=result,
            output_ids=output_ids,
            **facts,
            **record(output_ids),
        )


def _inputs(spec: OrderSpec, docs: dict[str, Document]) -> list[dict[str, Any]]:
    """The order's source documents as the record names them: the sha256 of
    the file uploaded and of the PDF its pages were read from."""
    return [
        {
            "documentId": key,
            "sha256": docs[key].sha256,
            "pdfSha256": pdf_of(docs[key]).sha256,
        }
        for key in sorted(spec.document_ids)
    ]


def _store(
    order: TransformationOrder,
    path: Path,
    document_id: str,
    title: str | None,
    parent: Document | None = None,
    part: int | None = None,
    password: str | None = None,
) -> Document:
    """Store an output (moved into storage, so `path` is gone afterwards);
    `password` opens it when an operation encrypted it."""
    pdf_fdf = order.format == TransformationOrder.Format.PDF_FDF
    fdf = engine.fdf_of(path) if pdf_fdf and password is None else None
    info = (
        inspect_pdf(str(path), produced_here=True, password=password)
        if password is not None and order.format != TransformationOrder.Format.ZIP
        else None
    )
    doc = document_services.document_store_result(
        path=path,
        document_id=document_id,
        title=title,
        owner_id=order.owner_id,
        parent=parent,
        part=part,
        info=info,
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


def _password(output: OutputSpec) -> str | None:
    """The password that opens the output, when an operation encrypts it."""
    for op in output.operations:
        if op.name == "encrypt":
            return str(op.spec.user_password or op.spec.owner_password or "")
    return None


def _operation_facts(reports: list[OpsReport | None]) -> dict[str, Any]:
    """What the outputs' operations did, for the order (one entry per output,
    as its GET answers it) and its report row (the production's Bates range)."""
    if not any(reports):
        return {}
    results = [_result(report) for report in reports]
    bates = [r.bates for r in reports if r is not None and r.bates is not None]
    return {
        "operation_results": results,
        "bates_first": bates[0].first if bates else None,
        "bates_last": bates[-1].last if bates else None,
    }


def _result(report: OpsReport | None) -> dict[str, Any]:
    if report is None:
        return {"ran": []}
    result: dict[str, Any] = {"ran": list(report.ran)}
    for key, numbers in (("bates", report.bates), ("pageNumbers", report.page_numbers)):
        if numbers is not None:
            result[key] = {"first": numbers.first, "last": numbers.last}
    if report.moved:
        result["moved"] = [page + 1 for page in report.moved]
    if report.not_drawn:
        result["notDrawn"] = [page + 1 for page in report.not_drawn]
    if report.removed:
        result["removed"] = dict(report.removed)
    if report.filled:
        result["filled"] = list(report.filled)
    return result
