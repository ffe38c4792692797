"""Admin-only reads of documents: page pictures and downloads, for staff whatever
the API's authentication (in token mode the API wants a key the browser has not)."""

from __future__ import annotations

from django.contrib.admin.utils import unquote
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
)

from documents import pages
from documents.downloads import file_response
from documents.models import Document
from engines.errors import EngineError
from engines.pdf.text.render import ImageSpec
from transformsvc.problems import ServiceError

# Pixel widths the admin asks for (thumbnails, then the viewer's zoom steps);
# others are refused so the cache stays small.
WIDTHS = frozenset({96, 240, 480, 720, 960, 1280, 1600, 2000, 2400})

_NO_PICTURE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 34 44">'
    '<path d="M1 1h24l8 8v34H1z" fill="#f3f4f6" stroke="#9ca3af"/></svg>'
)


def _document(object_id: str) -> Document:
    try:
        return Document.objects.defer("layout").get(pk=unquote(object_id))
    except Document.DoesNotExist:
        raise Http404("no such document") from None


def page_image(request: HttpRequest, object_id: str, page: int) -> HttpResponseBase:
    """PNG of one page (cached on disk by content); a plain sheet for documents
    that have no picture (zip, FDF, files stored as they came)."""
    doc = _document(object_id)
    try:
        width = int(request.GET.get("width", "240"))
    except ValueError:
        width = 0
    if width not in WIDTHS:
        raise Http404("unknown width")
    if not doc.page_count:
        return HttpResponse(_NO_PICTURE_SVG, content_type="image/svg+xml")
    try:
        image = pages.page_image(doc, page, ImageSpec(width=width))
    except ServiceError as exc:
        if exc.code == "page_out_of_range":
            raise Http404(exc.detail) from exc
        return HttpResponse(_NO_PICTURE_SVG, content_type="image/svg+xml")
    except EngineError:  # a page the engine cannot draw: no picture
        return HttpResponse(_NO_PICTURE_SVG, content_type="image/svg+xml")
    response = FileResponse(image.path.open("rb"), content_type=image.media_type)
    response["Cache-Control"] = "private, max-age=86400"
    return response


def download(request: HttpRequest, object_id: str) -> HttpResponseBase:
    """The stored file, streamed from storage as an attachment (Range supported)."""
    doc = _document(object_id)
    try:
        fh = doc.file.open("rb")
    except FileNotFoundError:
        raise Http404("the stored file is missing") from None
    return file_response(
        request,
        fh,
        size=doc.size,
        content_type=doc.mime_type,
        filename=doc.download_name,
    )
