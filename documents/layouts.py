"""The layout answer of a document: its pages, or for a container (an e-mail, an
archive, the result of a multi-output order) its parts' layouts, nested, in the
original's shapes (`DocumentPageLayout`, `DocumentContainer` with `children`)."""

from __future__ import annotations

import time
from typing import Any

from documents.models import Document
from documents.renditions.waits import wait_readable
from transformsvc.conf import service
from transformsvc.problems import Busy, ServiceError


def _type(name: str) -> str:
    return f"{service().type_prefix}.client.api.document.{name}"


def document_layout(doc: Document) -> dict[str, Any]:
    """The layout of `doc` (with its `layout` field loaded), waiting for pages
    being converted up to the rendition wait; documents without pages of their
    own (media, files stored as they are) have an empty page list."""
    deadline = time.monotonic() + service().rendition_wait
    return _layout(doc, deadline)


def _layout(doc: Document, deadline: float) -> dict[str, Any]:
    try:
        doc = wait_readable(doc, with_layout=True)
    except Busy:
        raise
    except ServiceError:  # failed, no pages, or a container: answered below
        doc = Document.objects.get(pk=doc.pk)
    if doc.is_container:
        return _container(doc, deadline)
    page = {
        "type": _type("DocumentPageLayout"),
        "documentId": {"id": doc.id},
        "documentTitle": doc.title,
        "mimeType": doc.mime_type,
        "pageDimensionsList": [
            {
                "width": p["width"],
                "height": p["height"],
                "rotation": p["rotation"],
                "dpi": p.get("dpi", 72),
                "pageLayers": None,
            }
            for p in doc.layout
        ],
    }
    if doc.rendition_state == Document.Rendition.FAILED:
        page["renditionError"] = doc.rendition_error
    return page


def _container(doc: Document, deadline: float) -> dict[str, Any]:
    children = []
    for child in doc.children.order_by("part", "id"):
        if time.monotonic() > deadline:
            raise Busy(
                f"the parts of document {doc.id!r} are still being converted; "
                "try again shortly",
                headers={"Retry-After": "5"},
            )
        children.append(_layout(child, deadline))
    container: dict[str, Any] = {
        "type": _type("DocumentContainer"),
        "documentId": {"id": doc.id},
        "documentTitle": doc.title,
        "mimeType": doc.mime_type,
        "children": children,
    }
    if doc.rendition_state == Document.Rendition.FAILED:
        container["renditionError"] = doc.rendition_error
    return container
