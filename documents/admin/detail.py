"""The page of one document: its viewer (or why it has no pages), its layout
as a table, downloads, the documents and orders around it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.html import format_html

from documents.admin import cards, relations, viewer
from documents.models import Document
from jobs.admin import display
from jobs.admin.documents import DocumentCard
from jobs.states import State

LAYOUT_ROWS = 200
MM_PER_POINT = 25.4 / 72


def _layout_rows(doc: Document) -> list[dict[str, Any]]:
    rows = []
    for n, page in enumerate(doc.layout[:LAYOUT_ROWS]):
        width, height = page.get("width", 0), page.get("height", 0)
        rows.append(
            {
                "page": n + 1,  # people count pages from 1
                "points": f"{width} × {height}",
                "mm": f"{width * MM_PER_POINT:.0f} × {height * MM_PER_POINT:.0f}",
                "orientation": "landscape" if width > height else "portrait",
                "rotation": page.get("rotation", 0),
            }
        )
    return rows


def _pages_fact(doc: Document) -> str:
    if doc.rendition_state == Document.Rendition.PENDING:
        return "being converted"
    if doc.rendition_state == Document.Rendition.FAILED:
        return "none: its conversion failed"
    return str(doc.page_count or display.DASH)


def context(request: HttpRequest, doc: Document) -> dict[str, Any]:
    used, uses = relations.used_by(doc)
    renditions = list(doc.renditions.defer("layout"))
    children = list(doc.children.defer("layout").order_by("part", "id"))
    name = cards.display_name(doc)
    return {
        "subtitle": name,
        "doc": doc,
        "name": name,
        "card": cards.card(doc),
        **viewer.context(request, doc),
        "layout_rows": _layout_rows(doc),
        "layout_more": max(0, len(doc.layout) - LAYOUT_ROWS),
        "facts": [
            ("format", f"{cards.kind_label(doc.mime_type)} ({doc.mime_type})"),
            ("size", f"{display.human_bytes(doc.size)} ({doc.size:,} bytes)"),
            ("pages", _pages_fact(doc)),
            ("origin", doc.get_origin_display()),
            ("owner", doc.owner.get_username() if doc.owner else display.DASH),
            ("created at", display.when(doc.created_at)),
        ],
        "downloads": [
            ("original", cards.card(doc)),
            *[("rendition", cards.card(r)) for r in renditions],
            *[("part", cards.card(c)) for c in children],
        ],
        "parent_card": cards.card(doc.parent) if doc.parent else None,
        "rendition_of_card": cards.card(doc.rendition_of) if doc.rendition_of else None,
        "used_by": used,
        "uses": uses,
        "made_by": relations.made_by(doc),
    }


def _named(card: DocumentCard) -> str:
    return f"{card.title} ({card.id})"


def deletion_warning(doc: Document) -> list[Any]:
    """What deleting `doc` takes with it and what it breaks, named."""
    parts = [
        *(f"part {_named(cards.card(d))}" for d in doc.children.all()),
        *(
            f"its {cards.kind_label(d.mime_type)} rendition {d.id}"
            for d in doc.renditions.all()
        ),
    ]
    used, _ = relations.used_by(doc)
    waiting = [
        link.order.pk
        for link in used
        if link.order.deleted_at is None
        and link.order.state in (State.QUEUED, State.PROCESSING)
    ]
    said = [
        "its file is removed from storage; GET /documents/<id> answers 404",
        "its row in document_report stays, marked deleted",
    ]
    if parts:
        said.append("deleted with it, files too: " + ", ".join(parts))
    if waiting:
        said.append(
            "orders waiting for it will fail (document deleted): " + ", ".join(waiting)
        )
    _, uses = relations.used_by(doc)
    if uses:
        count = sum(use.count for use in uses)
        said.append(
            f"{count} order(s) that used it keep their history; a failed one among "
            "them can no longer be retried (its order page no longer offers it)"
        )
    made = relations.made_by(doc)
    if made is not None:
        said.append(f"{made.kind} order {made.order.pk} made it and keeps its history")
    # The admin's unordered_list: the document, then what deleting it means.
    return [
        format_html(
            "Document <b>{}</b> <code>{}</code>", cards.display_name(doc), doc.id
        ),
        said,
    ]
