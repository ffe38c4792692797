"""Readers of pages wait for them: a document being converted (or recognised)
is waited for on LISTEN/NOTIFY, like the order long poll, up to a setting; then
the reader answers 503 with Retry-After. A conversion that failed answers 422
naming why; a document without pages 415."""

from __future__ import annotations

from documents.models import Document
from jobs.notify import wait_until
from transformsvc.conf import service
from transformsvc.problems import Busy, NotFound, Unprocessable, UnsupportedMedia


def _reload(doc: Document, with_layout: bool) -> Document:
    qs = Document.objects.all()
    if not with_layout:
        qs = qs.defer("layout")
    found = qs.filter(pk=doc.pk).first()
    if found is None:  # deleted while its reader waited
        raise NotFound(f"document {doc.pk!r} was deleted while it was being read")
    return found


def _wait_ms() -> int:
    return int(service().rendition_wait * 1000)


def wait_readable(doc: Document, *, with_layout: bool = False) -> Document:
    """`doc` once its pages can be read (reloaded if it had to wait).

    Raises Busy (503) when the conversion is still under way after the wait,
    Unprocessable (422) when it failed, UnsupportedMedia (415) for a document
    without pages (media, containers, files stored as they are).
    """
    if doc.rendition_state == Document.Rendition.PENDING:
        doc = wait_until(
            doc.pk,
            lambda: _reload(doc, with_layout),
            lambda d: d.rendition_state != Document.Rendition.PENDING,
            _wait_ms(),
        )
    state = doc.rendition_state
    if state == Document.Rendition.READY and not doc.is_container and doc.page_count:
        return doc
    if state == Document.Rendition.PENDING:
        raise Busy(
            f"document {doc.pk!r} is still being converted; try again shortly",
            headers={"Retry-After": "5"},
        )
    if state == Document.Rendition.FAILED:
        raise Unprocessable(
            f"document {doc.pk!r} could not be converted: {doc.rendition_error}"
        )
    if doc.is_container:
        raise UnsupportedMedia(
            f"document {doc.pk!r} is a container ({doc.format}) without pages of "
            f"its own; read its parts, {doc.pk}/1 and on"
        )
    raise UnsupportedMedia(
        f"document {doc.pk!r} is not a readable PDF: it is {doc.mime_type}, "
        "which has no pages to read"
    )


def wait_text(doc: Document, *, with_layout: bool = False) -> Document:
    """`doc` once its pages and their text (recognised words included) are final."""
    doc = wait_readable(doc, with_layout=with_layout)
    if doc.text_state == Document.Text.PENDING:
        doc = wait_until(
            doc.pk,
            lambda: _reload(doc, with_layout),
            lambda d: d.text_state != Document.Text.PENDING,
            _wait_ms(),
        )
        if doc.text_state == Document.Text.PENDING:
            raise Busy(
                f"the text of document {doc.pk!r} is still being recognised; "
                "try again shortly",
                headers={"Retry-After": "5"},
            )
    return doc
