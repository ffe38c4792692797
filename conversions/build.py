"""What a conversion order builds: a document made readable (converted to PDF,
unpacked into parts, its scans recognised), or converted to another format on
request. Runs on a worker, outside transactions; a failure is an EngineError
whose message the document's readers will see."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from conversions.engines import ocr_options, office_pool
from documents import services
from documents.formats import mime_of
from documents.ids import child_id, new_document_id
from documents.models import Document
from documents.renditions import states
from documents.renditions.intake import Intake, intake, limits, ocr_mode
from documents.renditions.maker import maker
from documents.selectors import pdf_of
from documents.storage import local_path, pdf_path, spooled_file, temp_path, tmp_dir
from engines.convert import Family, Rendition, detect, to_pdf, unpack
from engines.convert.office import office_export
from engines.errors import ConversionImpossible, EngineError
from engines.ocr import ocr_pdf
from engines.pdf import export
from engines.pdf.layout import inspect_pdf
from engines.pdf.types import DocumentInfo
from jobs.dispatch import alive_workers
from jobs.queues import MAIN, OCR, served_here
from jobs.transient import is_transient


def make_readable(doc: Document) -> Document:
    """Make the pages of `doc` readable and their text final; returns the document
    its pages are read from (its PDF rendition, `doc` itself, or for a container
    `doc`). Raises ConversionImpossible with a message for the user."""
    if doc.rendition_state == Document.Rendition.PENDING:
        if doc.is_container:
            _unpack(doc)
            return doc
        _to_pdf(doc)
        doc.refresh_from_db()
        if doc.text_state == Document.Text.PENDING and _recognised_elsewhere(doc):
            return pdf_of(doc)
    if doc.text_state == Document.Text.PENDING:
        _recognise(doc)
        doc.refresh_from_db()
    return pdf_of(doc) if doc.page_count else doc


def _to_pdf(doc: Document) -> None:
    """Office, text or HTML → the document's PDF rendition; then READY (its text
    PENDING when it shows scans to recognise)."""
    with local_path(doc) as src, temp_path(".pdf") as dest:
        detected = detect(str(src))
        office = office_pool() if detected.family is Family.OFFICE else None
        made = to_pdf(str(src), detected, str(dest), limits(), office=office)
        mode = doc.ocr_mode or ocr_mode(None)
        info = inspect_pdf(str(dest), produced_here=True, find_scans=mode == "auto")
        _forget_renditions(doc, "pdf")
        pdf = services.document_store_result(
            path=dest,
            document_id=new_document_id(),
            title=doc.title,
            owner_id=doc.owner_id,
            rendition_of=doc,
            info=info,
        )
    services.reads_from(doc, pdf)
    scans = mode == "always" or (mode == "auto" and bool(info.scans))
    states.rendition_ready(
        doc.pk,
        layout=states.layout_json(info.pages, [page.dpi for page in made.pages]),
        page_count=info.page_count,
        text_state=Document.Text.PENDING if scans else Document.Text.READY,
        fidelity=made.fidelity.to_json(),
    )


def _recognised_elsewhere(doc: Document) -> bool:
    """Hand the recognition of `doc`'s scans to the OCR queue (a conversion of
    its own) when this worker serves the main queue and the OCR queue has
    workers: its pages are readable now, and the main queue stays free for
    what clients wait on. False: recognise here."""
    if served_here() != MAIN or alive_workers(OCR) == 0:
        return False
    maker().request(doc)
    return True


def _recognise(doc: Document) -> None:
    """The scans of `doc` recognised: its PDF is replaced by a copy carrying the
    words as invisible text. The text is final afterwards, whatever happened."""
    try:
        source = pdf_of(doc)
        with local_path(source) as src, temp_path(".pdf") as dest:
            report = ocr_pdf(str(src), str(dest), ocr_options(doc.ocr_mode or "auto"))
            Document.objects.filter(pk=doc.pk).update(ocr_report=report.to_json())
            if report.pages_ocred:
                pdf = services.document_store_result(
                    path=dest,
                    document_id=new_document_id(),
                    title=doc.title,
                    owner_id=doc.owner_id,
                    rendition_of=doc,
                )
                services.reads_from(doc, pdf)
                if source.pk != doc.pk:
                    rendition_delete(source)
    except Exception as exc:
        if not is_transient(exc):  # a passing fault is tried again: still pending
            reason = str(exc) if isinstance(exc, EngineError) else "an internal error"
            states.text_ready(
                doc.pk, error=f"the scanned pages could not be recognised: {reason}"
            )
        raise
    states.text_ready(doc.pk)


def _unpack(doc: Document) -> None:
    """An e-mail or an archive → its parts, each a document `<id>/<n>` made
    readable in turn (its own conversion order when it needs one)."""
    for old in doc.children.all():  # a second attempt starts afresh
        services.document_delete(document_id=old.pk, owner_id=old.owner_id)
    work = Path(tempfile.mkdtemp(prefix="parts-", dir=tmp_dir()))
    try:
        with local_path(doc) as src:
            detected = detect(str(src))
            container = unpack(
                str(src), detected, str(work), limits(), depth=_depth(doc)
            )
        mode = doc.ocr_mode or ocr_mode(None)
        for part in container.parts:
            path = Path(part.path)
            found = (
                _made(part.rendition)
                if part.rendition is not None and part.rendition.path != part.path
                else intake(path, fail_on_unsupported=False, ocr=mode)
            )
            services.store_intake(
                spooled_file(path, found.mime_type),
                found,
                document_id=child_id(doc.pk, part.index),
                title=part.name,
                owner_id=doc.owner_id,
                origin=Document.Origin.PART,
                ocr=mode,
                parent=doc,
                part=part.index,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    states.rendition_ready(doc.pk, is_container=True)


def _made(rendition: Rendition) -> Intake:
    """A part whose PDF the unpacking made already (an e-mail's message, kept
    as HTML): stored with that PDF as its rendition, readable at once."""
    info = inspect_pdf(rendition.path, produced_here=True)
    return Intake(
        "text/html",
        DocumentInfo("text/html", info.pages, info.title),
        Document.Rendition.READY,
        rendition=Path(rendition.path),
    )


def _depth(doc: Document) -> int:
    """How many containers hold `doc` (0 for an upload)."""
    depth, parent_id = 0, doc.parent_id
    while parent_id is not None:
        depth += 1
        parent_id = (
            Document.objects.filter(pk=parent_id)
            .values_list("parent_id", flat=True)
            .first()
        )
    return depth


def _forget_renditions(doc: Document, fmt: str) -> None:
    for old in doc.renditions.filter(format=fmt):
        rendition_delete(old)


def convert(doc: Document, fmt: str) -> Document:
    """`doc` in format `fmt` (a short name): itself, a rendition made before, or a
    new rendition. Raises ConversionImpossible for a conversion that cannot be made."""
    if fmt == doc.format:
        return doc
    made = doc.renditions.filter(format=fmt).order_by("-created_at").first()
    if made is not None:
        return made
    if fmt == "pdf":
        return make_readable(doc) if doc.page_count else _no_pages(doc, fmt)
    if fmt in export.IMAGE_FORMATS or fmt == "txt":
        if not doc.page_count:
            _no_pages(doc, fmt)
        return _from_pdf(doc, fmt)
    if fmt in OFFICE_TARGETS:
        return _from_office(doc, fmt)
    raise ConversionImpossible(
        f"document {doc.pk!r} ({doc.format}) cannot be converted to {fmt}"
    )


# What LibreOffice writes, from the Office documents it reads.
OFFICE_TARGETS = frozenset(
    {"docx", "odt", "doc", "rtf", "html", "xlsx", "ods", "xls", "csv", "pptx"}
    | {"odp", "ppt"}
)


def _from_office(doc: Document, fmt: str) -> Document:
    with local_path(doc) as src, temp_path(f".{fmt}") as dest:
        detected = detect(str(src))
        if detected.family is not Family.OFFICE:
            raise ConversionImpossible(
                f"document {doc.pk!r} ({doc.format}) cannot be converted to {fmt}: "
                "only Office and OpenDocument files convert to Office formats"
            )
        office_export(str(src), detected, str(dest), fmt, limits(), office_pool())
        return services.document_store_result(
            path=dest,
            document_id=new_document_id(),
            title=doc.title,
            owner_id=doc.owner_id,
            mime_type=mime_of(fmt),
            rendition_of=doc,
            format=fmt,
        )


def _no_pages(doc: Document, fmt: str) -> Document:
    raise ConversionImpossible(
        f"document {doc.pk!r} ({doc.format}) has no pages to convert to {fmt}"
    )


def _from_pdf(doc: Document, fmt: str) -> Document:
    with pdf_path(doc) as src, temp_path(f".{fmt}") as dest:
        if fmt == "txt":
            export.export_text(str(src), str(dest))
            mime = "text/plain"
        else:
            mime = export.export_images(str(src), str(dest), fmt)
        return services.document_store_result(
            path=dest,
            document_id=new_document_id(),
            title=doc.title,
            owner_id=doc.owner_id,
            mime_type=mime,
            rendition_of=doc,
            format=fmt,
        )


def rendition_delete(rendition: Document) -> None:
    services.document_delete(document_id=rendition.pk, owner_id=rendition.owner_id)


def rendition_delete_by_id(document_id: str) -> None:
    services.document_delete(document_id=document_id, missing_ok=True)
