"""The admin's document viewer: what it shows for a document (its pages, or why
it has none: being converted, a failed conversion's error, a container's parts)
and the staff-only reads its script makes (a page's text lines, a search over
the pages), whatever the API's authentication.

Pages count from 1 wherever people read them (`?page=3` opens the third page);
the URLs the script reads count from 0 like the engine and the API.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import quote, unquote
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import reverse

from documents import pages, search
from documents.admin import cards, overlays, pending, relations
from documents.admin.views import WIDTHS
from documents.models import Document
from engines.pdf.types import PositionText, SearchQuery
from transformsvc.problems import ServiceError

# A page without a layout entry is drawn as US Letter until its image says more.
LETTER = (612, 792)
SEARCH_LONGEST = 200  # characters of a search, at most


def _url(name: str, doc_id: str, *more: Any) -> str:
    return reverse(f"admin:documents_document_{name}", args=[quote(doc_id), *more])


def _start(request: HttpRequest, count: int) -> int:
    """The page asked for with `?page=` (from 1), as an index from 0."""
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        return 0
    return page - 1 if 1 <= page <= count else 0


def _sizes(doc: Document) -> list[list[float]]:
    count = doc.page_count or 0
    sizes = [
        [float(p.get("width") or LETTER[0]), float(p.get("height") or LETTER[1])]
        for p in (doc.layout or [])[:count]
    ]
    return sizes + [list(map(float, LETTER))] * (count - len(sizes))


def _status(doc: Document) -> tuple[str, str]:
    """What the viewer can show of `doc`: ("pages", "") or why not, for people."""
    kind = cards.kind_label(doc.mime_type)
    if doc.origin == Document.Origin.LAYOUT:
        return "none", (
            "Registered from its layout only: its page sizes are known, it has no "
            "content to draw."
        )
    if doc.rendition_state == Document.Rendition.FAILED:
        return "failed", doc.rendition_error or f"The conversion of this {kind} failed."
    if doc.rendition_state == Document.Rendition.PENDING:
        return "pending", (
            f"This {kind} is being converted; its pages show here when the "
            "conversion ends (reload the page)."
        )
    if doc.is_container:
        return "container", ""
    if doc.page_count:
        return "pages", ""
    return "none", f"{kind} files are kept as they came: they have no pages to show."


def _parts(doc: Document) -> list[dict[str, Any]]:
    """The parts of a container in their order, with their titles as stored
    (an archive's entries keep their folders there)."""
    children = doc.children.defer("layout").order_by("part", "id")
    return [
        {
            "card": cards.card(child),
            "title": cards.display_name(child),
            "number": child.part,
            "viewer_url": cards.viewer_url(child.id),
            "state": child.get_rendition_state_display()
            if child.rendition_state != Document.Rendition.READY
            else "",
        }
        for child in children
    ]


def context(request: HttpRequest, doc: Document) -> dict[str, Any]:
    """The viewer's part of a document's page (and of its own page)."""
    status, message = _status(doc)
    found: dict[str, Any] = {
        "viewer_status": status,
        "viewer_message": message,
        "viewer_url": cards.viewer_url(doc.id),
        "parts": _parts(doc) if doc.is_container or doc.children.exists() else [],
    }
    if status != "pages":
        return found
    count = doc.page_count or 0
    start = _start(request, count)
    order_id = request.GET.get("order", "").strip()
    shapes = overlays.shapes(doc)
    order, drawn = pending.order_shapes(doc, order_id) if order_id else (None, [])
    shapes += drawn
    image = _url("page", doc.id, 0).removesuffix("0.png") + "{n}.png?width={w}"
    text = _url("viewer_text", doc.id, 0).removesuffix("0.json") + "{n}.json"
    found["viewer_order"] = order
    found["viewer_order_draws"] = len(drawn)
    found["viewer_order_url"] = relations.change_url(order) if order else None
    found["viewer_start"] = start
    found["viewer_first_image"] = cards.page_url(doc.id, start, 720)
    found["viewer_config"] = {
        "id": doc.id,
        "pages": _sizes(doc),
        "start": start,
        "image": image,
        # Recognition still running: no text layer (its reads would wait for it).
        "text": text if doc.text_state == Document.Text.READY else None,
        "search": _url("viewer_search", doc.id),
        "widths": sorted(WIDTHS),
        "shapes": [shape.as_json() for shape in shapes],
        "query": request.GET.get("q", "")[:SEARCH_LONGEST],
    }
    return found


# --- reads of the script -----------------------------------------------------------


def _document(object_id: str) -> Document:
    doc = Document.objects.filter(pk=unquote(object_id)).defer("layout").first()
    if doc is None:
        raise Http404("no such document")
    return doc


def _box(line: PositionText) -> list[float]:
    p = line.position
    return [round(p.x, 2), round(p.y, 2), round(p.w, 2), round(p.h, 2)]


def _problem(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"detail": exc.detail}, status=exc.status)


def page_text(request: HttpRequest, object_id: str, page: int) -> JsonResponse:
    """The text lines of page `page` (from 0): box in points, text, font size."""
    doc = _document(object_id)
    try:
        lines = pages.page_text(doc, page)
    except ServiceError as exc:
        return _problem(exc)
    return JsonResponse(
        {
            "page": page,
            "lines": [
                {"b": _box(line), "t": line.text, "s": round(line.font_size, 2)}
                for line in lines
                if not line.rotation  # upright lines only: the others are not selected
            ],
        }
    )


def search_pages(request: HttpRequest, object_id: str) -> JsonResponse:
    """Matches of `q` from page `from` (from 0) on, as many pages as the search
    budget allows: `lastPage` says where it stopped, `status` PARTIAL means the
    script goes on from `lastPage + 1` (as the API's document search)."""
    doc = _document(object_id)
    text = request.GET.get("q", "").strip()[:SEARCH_LONGEST]
    try:
        first = max(0, int(request.GET.get("from", "0")))
    except ValueError:
        first = 0
    if not text:
        return JsonResponse({"detail": "nothing to search"}, status=400)
    try:
        found = search.document_search(doc, SearchQuery(text=text), first=first)
    except ServiceError as exc:
        return _problem(exc)
    hits = [
        {"p": page, "b": _box(match), "t": match.text}
        for page, matches in sorted(found.results.items())
        for match in matches
    ]
    return JsonResponse(
        {"hits": hits, "lastPage": found.last_page, "status": found.status}
    )
