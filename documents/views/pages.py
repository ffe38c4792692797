"""Reads of one page: text search, text positions, rendered image."""

from __future__ import annotations

from django.http import FileResponse, HttpResponseBase, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import pages, selectors
from documents.page_serializers import (
    ImageQuerySerializer,
    PageContentsSerializer,
    SearchQuerySerializer,
    SearchResultsSerializer,
    page_contents,
    search_results,
)
from documents.pdf.types import SearchQuery


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
        responses={200: PageContentsSerializer},
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        lines = pages.page_text(doc, int(page))
        return Response(page_contents(int(page), lines))


class PageImageView(APIView):
    @extend_schema(
        operation_id="getPageImage",
        parameters=[
            ImageQuerySerializer,
            OpenApiParameter("If-None-Match", str, location=OpenApiParameter.HEADER),
            OpenApiParameter(
                "ETag", str, location=OpenApiParameter.HEADER, response=[200]
            ),
        ],
        responses={
            (200, "image/png"): OpenApiTypes.BINARY,
            (200, "image/jpeg"): OpenApiTypes.BINARY,
            304: None,
        },
    )
    def get(self, request: Request, document_id: str, page: str) -> HttpResponseBase:
        query = ImageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        image = pages.page_image(doc, int(page), query.spec())
        response: HttpResponseBase
        if image.etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
        else:
            response = FileResponse(
                image.path.open("rb"), content_type=image.media_type
            )
        response["ETag"] = image.etag
        # Documents never change, so neither do their images.
        response["Cache-Control"] = "private, max-age=31536000, immutable"
        return response
