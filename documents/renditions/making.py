"""Worker side of renditions: a document made readable (converted to PDF,
unpacked into parts, its scans recognised), or converted to another format on
request. Runs in a conversion order's build, outside transactions; a failure is
an EngineError whose message the document's readers will see."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from documents import services
from documents.convert import Family, detect, to_pdf, unpack
from documents.convert.office import office_export
from documents.formats import mime_of
from documents.ids import child_id, new_document_id
from documents.models import Document
from documents.ocr import ocr_pdf
from documents.pdf import export
from documents.pdf.layout import inspect_pdf
from documents.pdf.types import EngineError
from documents.renditions import states
from documents.renditions.engines import limits, ocr_options, office_pool
from documents.renditions.intake import intake, ocr_mode
from documents.selectors import pdf_of
from documents.storage import local_path, pdf_path, spooled_file, temp_path, tmp_dir


def make_readable(doc: Document) -> Document:
    """Make the pages of `doc` readable and their text final; returns the document
    its pages are read from (its PDF rendition, `doc` itself, or for a container
    `doc`). Raises EngineError with a message for the user."""
    if doc.rendition_state == Document.Rendition.PENDING:
        if doc.is_container:
            _unpack(doc)
            return doc
        _to_pdf(doc)
        doc.refresh_from_db()
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
        )
    services.reads_from(doc, pdf)
    scans = mode == "always" or (mode == "auto" and bool(info.scans))
    states.rendition_ready(
        doc.pk,
        layout=states.layout_json(info.pages, [page.dpi for page in made.pages]),
        page_count=info.page_count,
        text_state=Document.Text.PENDING if scans else Document.Text.READY,
    )


def _recognise(doc: Document) -> None:
    """The scans of `doc` recognised: its PDF is replaced by a copy carrying the
    words as invisible text. The text is final afterwards, whatever happened."""
    try:
        source = pdf_of(doc)
        with local_path(source) as src, temp_path(".pdf") as dest:
            report = ocr_pdf(str(src), str(dest), ocr_options(doc.ocr_mode or "auto"))
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
    finally:
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
            found = intake(path, fail_on_unsupported=False, ocr=mode)
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
    new rendition. Raises EngineError for a conversion that cannot be made."""
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
    raise EngineError(
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
            raise EngineError(
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
    raise EngineError(
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
