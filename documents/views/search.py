"""Search over a document's pages: which pages match, and the matches of a range."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import search, selectors
from documents.page_serializers import (
    MultiPagesSearchResultSerializer,
    PagesSearchResultSerializer,
    RangeSearchQuerySerializer,
    SearchQuerySerializer,
    multi_pages_result,
    pages_result,
)
from documents.pdf.types import SearchQuery


def _query(params: dict[str, object]) -> SearchQuery:
    return SearchQuery(
        text=str(params["searchText"]),
        case_sensitive=bool(params["caseSensitive"]),
        accent_sensitive=bool(params["accentSensitive"]),
        regex=bool(params["regex"]),
    )


class PagesSearchView(APIView):
    @extend_schema(
        operation_id="searchDocumentPages",
        description="The pages (from 0) where searchText matches, with the rules of "
        "the page search.",
        parameters=[SearchQuerySerializer],
        responses={200: PagesSearchResultSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        query = SearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        found = search.document_search(doc, _query(query.validated_data))
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
        description="Matches on pages fromPage..toPage, as many as the time budget "
        "allows: searchStatus PARTIAL means go on from lastPageSearched + 1.",
        parameters=[RangeSearchQuerySerializer],
        responses={200: MultiPagesSearchResultSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        query = RangeSearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        doc = selectors.document_get(document_id, request_owner_id(request))
        found = search.document_search(
            doc, _query(params), first=params["fromPage"], last=params["toPage"]
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
