"""Reads of one page: text search, text positions, rendered image."""

from __future__ import annotations

from django.http import FileResponse, HttpResponseBase, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import examples, pages, readcache
from documents.page_serializers import (
    ImageQuerySerializer,
    PageContentsSerializer,
    SearchQuerySerializer,
    SearchResultsSerializer,
    page_contents,
    search_query,
    search_results,
)


class PageTextSearchView(APIView):
    @extend_schema(
        operation_id="searchPageText",
        summary="Find a text's matches on one page, with exact boxes",
        description="The matches of `searchText` on page `page` (from 0), each "
        "with the box of the characters matched, in points on the displayed "
        "page (origin top-left): ready to send as the `coords` of a "
        "`RedactTextElemType` annotation. Same rules as the document search.",
        parameters=[SearchQuerySerializer],
        examples=[OpenApiExample("One match", value=examples.PAGE_TEXT)],
        responses={200: SearchResultsSerializer},
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        query = search_query(request.query_params)
        doc = readcache.document_for_pages(document_id, request_owner_id(request))
        matches = pages.page_search(doc, int(page), query)
        return Response(search_results(matches))


class PageTextPositionView(APIView):
    @extend_schema(
        operation_id="getPageTextPositions",
        summary="Read every text line of a page with its geometry",
        description="The original's PageContents: one entry per line in reading "
        "order, each line as a reader sees it: leading and trailing spaces left "
        "out, the words joined by single spaces (a run of spaces or a tab is one "
        "space whose width covers the run), and letter-spaced text (a form's 1 pt "
        "template anchors such as `{{s1|radio|14|Datenschutz|f|JA}}`) read as the "
        "text it spells, not one letter per word. Page from 0; positions in "
        "points on the displayed page, origin top-left; `individualWidths` one per "
        "character, summing to the line's width.",
        responses={200: PageContentsSerializer},
        examples=[
            OpenApiExample(
                "A form line with a template anchor",
                response_only=True,
                value={
                    "pageNumber": 1,
                    "positionTextList": [
                        {
                            "pageNumber": 1,
                            "position": {"x": 71.0, "y": 229.4, "w": 26.1, "h": 11.0},
                            "text": "{{s1|x}} Yes",
                            "individualWidths": [0.8] * 9 + [7.3, 6.1, 5.5],
                            "fontSize": 1.0,
                            "font": "LiberationSans",
                            "clickableDestination": None,
                            "paragraphId": 2,
                            "rightToLeftText": False,
                            "startTime": -1.0,
                            "rotation": 0,
                        }
                    ],
                    "imageHyperlinkPositionList": [],
                },
            )
        ],
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        doc = readcache.document_for_pages(document_id, request_owner_id(request))
        lines = pages.page_text(doc, int(page))
        return Response(page_contents(int(page), lines))


class PageImageView(APIView):
    @extend_schema(
        operation_id="getPageImage",
        summary="Draw a page as an image",
        description="A PNG of page `page` (from 0), or a JPEG for a page that "
        "is a JPEG scan, drawn at the width `pageImageDescription` asks "
        "(`IM_<width>_<rotation>`, optionally with `_FILTERS~C~c~B~b~I~i`), or "
        "`width`. Images never change: `ETag`, `Cache-Control: immutable`, "
        "and 304 on `If-None-Match`.",
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
        doc = readcache.document_for_pages(document_id, request_owner_id(request))
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
