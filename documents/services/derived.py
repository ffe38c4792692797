"""Files derived from a document on demand, made once and kept as its
renditions: the one PDF of a container's parts, and the text or Markdown of
any document that has pages (for a scan, of its recognised words).

What the original's clients download with `?format=`: `pdf` of a container
(an e-mail, an archive, the result of a multi-output order) is its readable
parts one after the other; `txt` and `md` of a Word file, an e-mail or a scan
are its text. Each is made the first time it is asked for, in the request,
and stored like a conversion order's rendition (same `format`), so a later
request, or a conversion order for the same format, reuses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack

from documents.formats import mime_of
from documents.ids import new_document_id
from documents.models import Document
from documents.renditions.waits import wait_readable, wait_text
from documents.selectors import document_in_format, pdf_of
from documents.services.results import document_store_result
from documents.storage import local_path, temp_path
from engines.pdf import export
from engines.pdf.assemble import assemble
from engines.pdf.layout import PDF
from engines.pdf.types import SourceElement
from transformsvc.conf import service
from transformsvc.problems import (
    Busy,
    NotAcceptable,
    NotFound,
    Unprocessable,
    UnsupportedMedia,
)

# Text formats made from a document's PDF: format → writer (src, dest paths).
TEXT_WRITERS: dict[str, Callable[[str, str], None]] = {
    "txt": export.export_text,
    "md": export.export_markdown,
}
_PDF_NAMES = frozenset({"pdf", "rendered"})


def document_download(doc: Document, wanted: str) -> Document:
    """The document whose file answers `GET /file?format=<wanted>` for `doc`:
    as `document_in_format` says, and beyond it the parts' PDF of a container
    and the text (`txt`, `md`) of any document with pages, made on demand.
    406 for a format `doc` cannot be given in."""
    wanted = wanted.strip().lower()
    if doc.origin == Document.Origin.LAYOUT:
        raise NotFound(f"document {doc.id!r} was registered without content")
    if wanted in _PDF_NAMES and doc.is_container:
        return _available(doc, wanted, readable_pdf)
    if wanted in TEXT_WRITERS and wanted != doc.format:
        return _available(doc, wanted, lambda d: text_rendition(d, wanted))
    return document_in_format(doc, wanted)


def _available(
    doc: Document, wanted: str, make: Callable[[Document], Document]
) -> Document:
    """`make(doc)`, a document without pages to make it from answering 406."""
    try:
        return make(doc)
    except UnsupportedMedia as exc:
        raise NotAcceptable(
            f"document {doc.id!r} ({doc.format or doc.mime_type}) has no pages to "
            f"give as {wanted}: {exc.detail}"
        ) from exc


def readable_pdf(doc: Document, *, with_text: bool = True) -> Document:
    """The PDF holding the pages of `doc` once they can be read (a conversion
    under way is waited for; with `with_text`, a recognition of its scans too):
    its PDF, or for a container one PDF of its readable parts, in order, nested
    containers flattened (made once, with their text). 415 when there are no
    pages at all."""
    if not doc.is_container:
        wait = wait_text if with_text else wait_readable
        return pdf_of(wait(doc))
    made = doc.renditions.filter(format="pdf", mime_type=PDF).first()
    if made is not None:
        return made
    deadline = time.monotonic() + service().rendition_wait
    try:  # its parts are known once it is unpacked
        wait_readable(doc)
    except (UnsupportedMedia, Unprocessable):
        pass
    parts = _readable_parts(doc, deadline)
    if not parts:
        raise UnsupportedMedia(
            f"document {doc.id!r} is a container without readable parts"
        )
    with ExitStack() as stack, temp_path(".pdf") as dest:
        elements = [
            SourceElement(key=part.pk, path=str(stack.enter_context(local_path(part))))
            for part in parts
        ]
        assemble(elements, str(dest))
        stack.close()
        return document_store_result(
            path=dest,
            document_id=new_document_id(),
            title=doc.title,
            owner_id=doc.owner_id,
            rendition_of=doc,
            format="pdf",
        )


def _readable_parts(container: Document, deadline: float) -> list[Document]:
    """The PDFs of the parts of `container` in order, its parts' parts in place
    of a part that is a container; parts without pages (media, files stored as
    they are, failed conversions) left out."""
    found: list[Document] = []
    for part in container.children.order_by("part", "id"):
        if time.monotonic() > deadline:
            raise Busy(
                f"the parts of document {container.id!r} are still being "
                "converted; try again shortly",
                headers={"Retry-After": "5"},
            )
        try:
            part = wait_text(part)
        except Busy:
            raise
        except (UnsupportedMedia, Unprocessable):
            part = Document.objects.get(pk=part.pk)
            if part.is_container:
                found.extend(_readable_parts(part, deadline))
            continue
        found.append(pdf_of(part))
    return found


def text_rendition(doc: Document, fmt: str) -> Document:
    """The text of `doc` in `fmt` (`txt`: UTF-8, a form feed between pages;
    `md`: Markdown), read from its pages (`readable_pdf`), made once."""
    made = doc.renditions.filter(format=fmt).order_by("-created_at").first()
    if made is not None:
        return made
    source = readable_pdf(doc)
    with local_path(source) as src, temp_path(f".{fmt}") as dest:
        TEXT_WRITERS[fmt](str(src), str(dest))
        return document_store_result(
            path=dest,
            document_id=new_document_id(),
            title=doc.title,
            owner_id=doc.owner_id,
            mime_type=mime_of(fmt) or "text/plain",
            rendition_of=doc,
            format=fmt,
        )
