"""HTTP endpoints of documents: one view per endpoint, parse → service → serialize."""

from __future__ import annotations

from urllib.parse import quote

from django.http import FileResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from documents import pages, selectors, services
from documents.downloads import file_response
from documents.models import Document
from documents.page_serializers import (
    ImageQuerySerializer,
    PositionTextSerializer,
    SearchQuerySerializer,
    SearchResultsSerializer,
    position_text,
    search_results,
)
from documents.parsers import RawStreamParser
from documents.pdf.types import SearchQuery
from documents.serializers import (
    DocumentIdSerializer,
    DocumentLayoutSerializer,
    DocumentSerializer,
    FileQuerySerializer,
    UploadQuerySerializer,
)
from transformsvc.auth import request_owner_id
from transformsvc.problems import NotAcceptable


def document_location(document_id: str) -> str:
    return "/documents/" + quote(document_id, safe="")


class DocumentUploadView(APIView):
    parser_classes = [RawStreamParser]

    @extend_schema(
        operation_id="uploadDocument",
        parameters=[UploadQuerySerializer],
        request={"application/octet-stream": OpenApiTypes.BINARY},
        responses={200: DocumentIdSerializer},
    )
    def post(self, request: Request) -> Response:
        query = UploadQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        body = request.data  # the raw stream, or an empty mapping for an empty body
        doc = services.document_create(
            stream=body
            if hasattr(body, "read") and not params.get("documentUrl")
            else None,
            document_id=params.get("documentId"),
            title=params.get("documentTitle"),
            url=params.get("documentUrl"),
            fail_on_unsupported=params["failOnUnsupported"],
            owner_id=request_owner_id(request),
            declared_size=_content_length(request),
        )
        return Response({"id": doc.id}, headers={"Location": document_location(doc.id)})


def _content_length(request: Request) -> int | None:
    value = request.META.get("CONTENT_LENGTH") or ""
    return int(value) if value.isdigit() else None


class DocumentDetailView(APIView):
    @extend_schema(operation_id="getDocument", responses={200: DocumentSerializer})
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(DocumentSerializer(doc).data)

    @extend_schema(operation_id="deleteDocument", responses={200: DocumentIdSerializer})
    def delete(self, request: Request, document_id: str) -> Response:
        services.document_delete(
            document_id=document_id, owner_id=request_owner_id(request)
        )
        return Response({"id": document_id})


class DocumentLayoutView(APIView):
    @extend_schema(
        operation_id="getDocumentLayout", responses={200: DocumentLayoutSerializer}
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(
            document_id, request_owner_id(request), with_layout=True
        )
        return Response(DocumentLayoutSerializer.from_document(doc))


class DocumentFileView(APIView):
    @extend_schema(
        operation_id="getDocumentFile",
        parameters=[
            OpenApiParameter(
                "format", str, description="pdf, zip or fdf; none = original"
            )
        ],
        responses={
            # The stored type: application/pdf, application/zip, image/png ...
            (200, "*/*"): OpenApiTypes.BINARY,
            (206, "*/*"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponseBase:
        query = FileQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        wanted = (query.validated_data.get("format") or "").lower()
        target = _rendition(doc, wanted)
        return file_response(
            request,
            target.file.open("rb"),
            size=target.size,
            content_type=target.mime_type,
            filename=target.download_name,
        )


def _rendition(doc: Document, wanted: str) -> Document:
    """The document to send for `?format=`: the original, or a stored rendition."""
    if not wanted:
        return doc
    by_format = {
        "pdf": "application/pdf",
        "zip": "application/zip",
        "fdf": "application/vnd.fdf",
    }
    if by_format.get(wanted) == doc.mime_type:
        return doc
    rendition = (
        doc.renditions.filter(mime_type=by_format.get(wanted, "-")).first()
        if wanted in by_format
        else None
    )
    if rendition is None:
        raise NotAcceptable(
            f"document {doc.id!r} is {doc.mime_type} and is not available as {wanted!r}"
        )
    return rendition


class PageTextSearchView(APIView):
    @extend_schema(
        operation_id="searchPageText",
        parameters=[SearchQuerySerializer],
        responses={200: SearchResultsSerializer},
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        query = SearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        doc = selectors.document_get(document_id, request_owner_id(request))
        matches = pages.page_search(
            doc,
            int(page),
            SearchQuery(
                text=params["searchText"],
                case_sensitive=params["caseSensitive"],
                accent_sensitive=params["accentSensitive"],
                regex=params["regex"],
            ),
        )
        return Response(search_results(matches))


class PageTextPositionView(APIView):
    @extend_schema(
        operation_id="getPageTextPositions",
        responses={200: PositionTextSerializer(many=True)},
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(
            [position_text(line) for line in pages.page_text(doc, int(page))]
        )


class PageImageView(APIView):
    @extend_schema(
        operation_id="getPageImage",
        parameters=[ImageQuerySerializer],
        responses={(200, "image/png"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, document_id: str, page: str) -> HttpResponseBase:
        query = ImageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        png = pages.page_image(doc, int(page), query.validated_data["width"])
        response = FileResponse(png.open("rb"), content_type="image/png")
        response["Cache-Control"] = "private, max-age=86400"
        return response
