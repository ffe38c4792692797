"""Documents as the order admins show them (jobs.admin.documents.DocumentCards):
titles, thumbnails from the admin's own page-image view, downloads, parts."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache

from django.contrib.admin.utils import quote
from django.db.models import Q
from django.urls import reverse

from documents.formats import extension_of
from documents.library import title_words
from documents.models import Document
from jobs.admin.documents import NO_PICTURE, DocumentCard


def kind_label(mime_type: str) -> str:
    return extension_of(mime_type).lstrip(".").upper() or "FILE"


_HOLE = "0ts0hole0"


@cache
def _pattern(name: str) -> str:
    """The URL of `name` with a hole for the quoted id: a list page links a few
    hundred documents, and reverse() costs more than the rest of a cell."""
    return reverse(name, args=[_HOLE, 0] if name.endswith("_page") else [_HOLE])


def admin_url(document_id: str) -> str:
    return _pattern("admin:documents_document_change").replace(
        _HOLE, quote(document_id)
    )


def viewer_url(document_id: str) -> str:
    return _pattern("admin:documents_document_viewer").replace(
        _HOLE, quote(document_id)
    )


def download_url(document_id: str) -> str:
    return _pattern("admin:documents_document_download").replace(
        _HOLE, quote(document_id)
    )


def page_url(document_id: str, page: int, width: int) -> str:
    base = _pattern("admin:documents_document_page").replace(_HOLE, quote(document_id))
    return f"{base.removesuffix('0.png')}{page}.png?width={width}"


def untitled(doc: Document) -> str:
    """What to call a document without a title (most results have none)."""
    what = kind_label(doc.mime_type)
    if doc.rendition_of_id:
        return f"{what} rendition"
    if doc.parent_id:
        number = doc.part if doc.part is not None else doc.id.rsplit("/", 1)[-1]
        return f"{what} part {number}"
    return (
        f"{what} result" if doc.origin == Document.Origin.RESULT else f"untitled {what}"
    )


def display_name(doc: Document) -> str:
    """The one name the admin gives `doc` on every page: its title; a rendition
    (which keeps its source's title) says what it is; without a title, what it
    is (`untitled`)."""
    if doc.rendition_of_id and doc.title:
        return f"{kind_label(doc.mime_type)} rendition of {doc.title}"
    return doc.title or untitled(doc)


def card(
    doc: Document, thumb_width: int = 96, parts: tuple[DocumentCard, ...] = ()
) -> DocumentCard:
    return DocumentCard(
        id=doc.id,
        title=display_name(doc),
        admin_url=admin_url(doc.id),
        download_url=download_url(doc.id),
        thumbnail_url=page_url(doc.id, 0, thumb_width)
        if doc.page_count
        else NO_PICTURE,
        pages=doc.page_count,
        size=doc.size,
        kind=kind_label(doc.mime_type),
        parts=parts,
        viewer_url=viewer_url(doc.id) if doc.page_count else None,
    )


class Cards:
    def cards(
        self, ids: Collection[str], *, thumb_width: int
    ) -> dict[str, DocumentCard]:
        found = {
            d.id: card(d, thumb_width)
            for d in Document.objects.filter(pk__in=list(ids)).defer("layout")
        }
        return {i: found.get(i) or DocumentCard(id=i, title=i) for i in ids}

    def with_parts(self, ids: Collection[str]) -> list[DocumentCard]:
        wanted = list(ids)
        docs = list(
            Document.objects.filter(
                Q(pk__in=wanted)
                | Q(parent_id__in=wanted)
                | Q(rendition_of_id__in=wanted)
            )
            .defer("layout")
            .order_by("id")
        )
        renditions = list(
            Document.objects.filter(
                rendition_of_id__in=[d.id for d in docs if d.parent_id in wanted]
            ).defer("layout")
        )
        return [_nested(i, [*docs, *renditions]) for i in wanted]

    def titled(self, words: Sequence[str], *, limit: int) -> list[str]:
        if not words:
            return []
        found = Document.objects.filter(title_words(words)).order_by("-created_at")
        return list(found.values_list("pk", flat=True)[:limit])


def _nested(document_id: str, docs: list[Document]) -> DocumentCard:
    by_id = {d.id: d for d in docs}
    doc = by_id.get(document_id)
    if doc is None:
        return DocumentCard(id=document_id, title=document_id)
    parts = tuple(
        _nested(d.id, docs)
        for d in docs
        if d.parent_id == document_id or d.rendition_of_id == document_id
    )
    return card(doc, 240, parts)
