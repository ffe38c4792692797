"""Reads on documents, scoped to the caller's owner when authentication is on."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import QuerySet

from accounts.auth import owned
from documents.ids import path_spelling
from documents.models import Document
from documents.pdf.layout import PDF
from transformsvc.problems import NotFound, UnsupportedMedia

# Hook for conversion orders (another app): each function maps a document to
# {format: conversion order id}; the conversions app appends one in its
# AppConfig.ready(), so that this app never imports it. GET /documents/<id>
# reports the union as `conversionOrderIds`.
CONVERSION_ORDER_LOOKUPS: list[Callable[[Document], dict[str, str]]] = []


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


def pdf_of(doc: Document) -> Document:
    """The PDF whose pages are read for `doc`: its rendition (converted or
    recognised), else the document itself when it is a PDF."""
    if doc.origin == Document.Origin.LAYOUT:
        raise UnsupportedMedia(
            f"document {doc.id!r} was registered from its layout only; "
            "it has no content"
        )
    if doc.pdf_document_id is not None:
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


def document_available(document_id: str, owner_id: int | None = None) -> Document:
    """The document when its PDF rendition is done (GET /check); 404 otherwise."""
    doc = document_get(document_id, owner_id)
    if pdf_rendition(doc) is None:
        raise NotFound(f"document {document_id!r} has no rendition available")
    return doc


def conversion_order_ids(doc: Document) -> dict[str, str]:
    """{format: conversion order id} of `doc`, from the registered lookups."""
    found: dict[str, str] = {}
    for lookup in CONVERSION_ORDER_LOOKUPS:
        found.update(lookup(doc))
    return found


def document_described(
    document_id: str, owner_id: int | None = None
) -> tuple[Document, Document | None, dict[str, str]]:
    """A visible document, its PDF rendition (None if none) and its conversion
    orders by format: what GET /documents/<id> reports."""
    doc = document_get(document_id, owner_id)
    return doc, pdf_rendition(doc), conversion_order_ids(doc)
