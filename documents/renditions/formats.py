"""Which stored file answers `GET /documents/<id>/file?format=`."""

from __future__ import annotations

from documents.formats import mime_of
from documents.models import Document
from documents.renditions.waits import wait_text
from documents.selectors import pdf_of
from transformsvc.problems import NotAcceptable, NotFound

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
