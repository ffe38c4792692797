"""Search over a document's pages: which pages match, and the matches of a range."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import examples, readcache, search
from documents.page_serializers import (
    MultiPagesSearchResultSerializer,
    PagesSearchResultSerializer,
    RangeSearchQuerySerializer,
    SearchQuerySerializer,
    multi_pages_result,
    pages_result,
    search_query_of,
)


class PagesSearchView(APIView):
    @extend_schema(
        operation_id="searchDocumentPages",
        summary="Find the pages where a text occurs",
        description="The pages (from 0) where `searchText` matches, with the "
        "rules of the page search: case and accents folded unless "
        "`caseSensitive`/`accentSensitive`, a regular expression with "
        "`regex`. Scanned pages are searched through their OCR text. "
        "`searchStatus` PARTIAL when the time budget ran out: "
        "`lastPageSearched` says how far it got.",
        examples=[OpenApiExample("Found on pages 0 and 2", value=examples.PAGES)],
        parameters=[SearchQuerySerializer],
        responses={200: PagesSearchResultSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        query = SearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = readcache.document_for_pages(document_id, request_owner_id(request))
        found = search.document_search(doc, search_query_of(query.validated_data))
        return Response(
            pages_result(
                doc.id,
                query.validated_data["searchText"],
                sorted(found.results),
                found.status,
                found.last_page,
            )
        )


class DocumentSearchView(APIView):
    @extend_schema(
        operation_id="searchDocument",
        summary="Find a text's matches, with their boxes, on a range of pages",
        description="The original's MultiPagesSearchResult: the matches on "
        "pages `fromPage`..`toPage` (from 0), by page, each with its line's "
        "geometry and the characters matched (`textRangeList`), as many as the "
        "time budget allows: `searchStatus` PARTIAL means go on from "
        "`lastPageSearched` + 1.",
        examples=[OpenApiExample("Two matches", value=examples.SEARCH)],
        parameters=[RangeSearchQuerySerializer],
        responses={200: MultiPagesSearchResultSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        query = RangeSearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        doc = readcache.document_for_pages(document_id, request_owner_id(request))
        found = search.document_search(
            doc,
            search_query_of(params),
            first=params["fromPage"],
            last=params["toPage"],
        )
        return Response(
            multi_pages_result(
                doc.id,
                params["searchText"],
                found.results,
                found.status,
                found.last_page,
            )
        )
