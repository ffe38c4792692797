"""Reads on documents, scoped to the caller's owner when authentication is on."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.auth import owned
from documents.formats import mime_of
from documents.ids import path_spelling
from documents.models import Document
from documents.renditions.maker import maker
from documents.renditions.waits import wait_readable, wait_text
from engines.pdf.layout import PDF
from transformsvc.problems import (
    Busy,
    NotAcceptable,
    NotFound,
    ServiceError,
    UnsupportedMedia,
)


def documents_visible(owner_id: int | None) -> QuerySet[Document]:
    return owned(Document.objects.all(), owner_id)


def document_get(
    document_id: str, owner_id: int | None = None, *, with_layout: bool = False
) -> Document:
    """A visible document; its layout (one entry per page) only when asked for."""
    qs = documents_visible(owner_id)
    if not with_layout:
        # Decoding a 1,000-page layout costs more than a warm search on one page.
        qs = qs.defer("layout")
    # As written first: a client's own id may hold "@<n>" (decisions §2).
    found = qs.filter(pk=document_id).first()
    spelled = path_spelling(document_id) if found is None else None
    if spelled is not None:
        found = qs.filter(pk=spelled).first()
    if found is None:
        raise NotFound(f"no document with id {document_id!r}")
    return found


_PDF_DOCUMENT = Document._meta.get_field("pdf_document")


def pdf_of(doc: Document) -> Document:
    """The PDF whose pages are read for `doc`: its rendition (converted or
    recognised), else the document itself when it is a PDF."""
    if doc.origin == Document.Origin.LAYOUT:
        raise UnsupportedMedia(
            f"document {doc.id!r} was registered from its layout only; "
            "it has no content"
        )
    if doc.pdf_document_id is not None:
        rendition: Document | None = None
        if _PDF_DOCUMENT.is_cached(doc):  # set by documents.readcache
            rendition = doc.pdf_document
        if rendition is None:
            rendition = Document.objects.filter(pk=doc.pdf_document_id).first()
        if rendition is not None:
            return rendition
    if doc.is_pdf:
        return doc
    raise UnsupportedMedia(
        f"document {doc.id!r} is {doc.mime_type}, not a readable PDF"
    )


def pdf_rendition(doc: Document) -> Document | None:
    """The PDF its pages are read from (itself for a PDF), None when there is none
    (yet): a conversion under way or failed, a file stored as it is, a layout."""
    if doc.origin == Document.Origin.LAYOUT:
        return None
    if doc.rendition_state != Document.Rendition.READY or not doc.page_count:
        return None
    if doc.is_pdf:
        return doc
    return doc.renditions.filter(mime_type=PDF).first()


def document_checked(document_id: str, owner_id: int | None = None) -> Document:
    """GET /check: the document when the service holds it, whatever it is (media,
    a container, a file stored as it is, a layout); 404 only for an unknown id.
    A conversion under way is waited for as the layout waits for it (503 with
    Retry-After when it is still going after the wait); one that failed still
    leaves a known document."""
    doc = document_get(document_id, owner_id)
    try:
        wait_readable(doc)
    except Busy:
        raise
    except ServiceError:  # failed, no pages, a container: known all the same
        pass
    return doc


def document_described(
    document_id: str, owner_id: int | None = None
) -> tuple[Document, Document | None, dict[str, str]]:
    """A visible document, its PDF rendition (None if none) and its conversion
    orders by format: what GET /documents/<id> reports."""
    doc = document_get(document_id, owner_id)
    return doc, pdf_rendition(doc), maker().order_ids(doc)


# The original's names for "the PDF the pages are read from".
_PDF_NAMES = frozenset({"pdf", "rendered"})


def document_in_format(doc: Document, wanted: str) -> Document:
    """`doc` itself for no format or its own; its PDF for `pdf`/`rendered` (waiting
    for a conversion or a recognition under way: the PDF with its words); else a
    rendition made by a conversion order.
    406 when there is none."""
    if doc.origin == Document.Origin.LAYOUT:
        raise NotFound(f"document {doc.id!r} was registered without content")
    wanted = wanted.strip().lower()
    if wanted in _PDF_NAMES:
        if doc.is_pdf:  # itself, or its copy with recognised scans
            return pdf_of(wait_text(doc))
        if doc.is_container or doc.rendition_state == Document.Rendition.NONE:
            raise NotAcceptable(
                f"document {doc.id!r} is {doc.format or doc.mime_type}, which has "
                "no PDF"
            )
        return pdf_of(wait_text(doc))
    if not wanted or wanted == doc.format or mime_of(wanted) == doc.mime_type:
        return doc
    made = doc.renditions.filter(format=wanted).order_by("-created_at").first()
    if made is None:
        raise NotAcceptable(
            f"document {doc.id!r} is {doc.format or doc.mime_type} and has not been "
            f"converted to {wanted!r}; POST /conversions to convert it"
        )
    return made
