"""What a stored file is and what it takes to read its pages, decided from its
bytes when it arrives (an upload, or a part of a container).

A PDF is read at once; a JPEG or PNG gets its PDF at once (its bytes embedded,
in the web process); other images (a TIFF's or a GIF's frames are decoded and
written again, seconds for a few scanned pages), Office files, text, HTML,
e-mails and archives wait for a worker (PENDING), so that heavy intake never
holds a web thread;
audio, video and what no engine reads have no pages. Scanned pages (of PDFs and
images) are recognised by a worker too: their text is PENDING meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from documents.models import Document
from engines.convert import Detected, Family, Limits, detect, to_pdf
from engines.convert.images import embeds_as_is
from engines.errors import EncryptedDocument, EngineError, UnsupportedDocument
from engines.pdf.layout import PDF, inspect_pdf
from engines.pdf.types import DocumentInfo
from transformsvc.conf import service
from transformsvc.problems import UnsupportedMedia

_LATER = frozenset(
    {Family.OFFICE, Family.TEXT, Family.HTML, Family.MAIL, Family.ARCHIVE}
)


@dataclass(frozen=True)
class Intake:
    """`info` has the pages when they can be read now. `rendition` is a PDF made
    now (an image's), stored as the document's PDF. `dpi[i]` is page i's."""

    mime_type: str
    info: DocumentInfo
    rendition_state: str
    text_state: str = Document.Text.READY
    rendition: Path | None = None
    dpi: tuple[int, ...] = field(default=())
    is_container: bool = False

    @property
    def needs_worker(self) -> bool:
        return (
            self.rendition_state == Document.Rendition.PENDING
            or self.text_state == Document.Text.PENDING
        )


def limits() -> Limits:
    """The converters' limits from the service's settings."""
    conf = service()
    return Limits(
        timeout=conf.conversion_timeout,
        max_pages=conf.max_pages,
        max_text_bytes=conf.max_text_bytes,
        max_image_pixels=conf.max_image_pixels,
        max_sheet_rows=conf.max_sheet_rows,
        max_entries=conf.archive_max_entries,
        max_total_bytes=conf.archive_max_bytes,
        max_entry_bytes=conf.archive_max_entry_bytes,
        max_ratio=conf.archive_max_ratio,
        max_depth=conf.container_max_depth,
        max_attachments=conf.mail_max_attachments,
    )


def ocr_mode(asked: str | None) -> str:
    """The OCR mode of an upload: as asked, else the setting's."""
    return asked or service().ocr


def intake(path: Path, *, fail_on_unsupported: bool, ocr: str) -> Intake:
    """Refuses (415, UnsupportedMedia) what cannot be read, unless
    `fail_on_unsupported` is false: then the file is kept without pages."""
    detected = detect(str(path))
    try:
        return _intake(path, detected, ocr)
    except UnsupportedDocument as exc:
        if fail_on_unsupported:
            raise UnsupportedMedia(
                f"{exc} (send failOnUnsupported=false to store it as is)"
            ) from exc
        return Intake(
            detected.mime_type,
            DocumentInfo(detected.mime_type, ()),
            Document.Rendition.NONE,
        )


def _intake(path: Path, detected: Detected, ocr: str) -> Intake:
    family = detected.family
    if detected.encrypted:
        raise UnsupportedDocument(_protected(detected.description))
    if family is Family.PDF:
        try:
            info = inspect_pdf(
                str(path), max_pages=service().max_pages, find_scans=ocr == "auto"
            )
        except EncryptedDocument as exc:
            raise UnsupportedDocument(_protected("PDF")) from exc
        return Intake(
            PDF, info, Document.Rendition.READY, text_state=_text_state(info, ocr)
        )
    if family is Family.IMAGE:
        return _image(path, detected, ocr)
    if family in _LATER:
        return Intake(
            detected.mime_type,
            DocumentInfo(detected.mime_type, ()),
            Document.Rendition.PENDING,
            is_container=detected.is_container,
        )
    if family is Family.MEDIA:
        return Intake(
            detected.mime_type,
            DocumentInfo(detected.mime_type, ()),
            Document.Rendition.NONE,
        )
    raise UnsupportedDocument(
        f"the document is {detected.description} ({detected.mime_type}); the service "
        "reads PDF, Office and OpenDocument files, text, HTML, e-mails, ZIP archives "
        "and images"
    )


def _protected(description: str) -> str:
    return (
        f"the file is a {description} protected by a password; send its password "
        "in the X-Document-Password header, or upload it unprotected"
    )


def _image(path: Path, detected: Detected, ocr: str) -> Intake:
    try:
        quick = embeds_as_is(str(path), detected, limits())
    except EngineError as exc:
        raise UnsupportedDocument(str(exc)) from exc
    if not quick:  # a worker makes its PDF (then its text, unless OCR is off)
        return Intake(
            detected.mime_type,
            DocumentInfo(detected.mime_type, ()),
            Document.Rendition.PENDING,
        )
    rendition = path.with_name(path.name + ".pdf")
    try:
        made = to_pdf(str(path), detected, str(rendition), limits())
        info = inspect_pdf(str(rendition), produced_here=True)
    except EngineError as exc:
        rendition.unlink(missing_ok=True)
        raise UnsupportedDocument(str(exc)) from exc
    # An image is a scan: its words are recognised, unless OCR is off.
    return Intake(
        detected.mime_type,
        DocumentInfo(detected.mime_type, info.pages, info.title),
        Document.Rendition.READY,
        text_state=Document.Text.READY if ocr == "never" else Document.Text.PENDING,
        rendition=rendition,
        dpi=tuple(page.dpi for page in made.pages),
    )


def _text_state(info: DocumentInfo, ocr: str) -> str:
    if ocr == "always" or (ocr == "auto" and info.scans):
        return Document.Text.PENDING
    return Document.Text.READY
