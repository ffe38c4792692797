"""A document's outline, named destinations, signatures and printable copy."""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import selectors, structure
from documents import structure_serializers as wire


class BookmarksView(APIView):
    @extend_schema(
        operation_id="getBookmarks", responses={200: wire.BookmarksSerializer}
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.bookmarks(structure.bookmarks(doc)))


class DestinationsView(APIView):
    @extend_schema(
        operation_id="getNamedDestinations",
        responses={200: wire.NamedDestinationsSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.named_destinations(doc.id, structure.destinations(doc)))


class SignaturesView(APIView):
    @extend_schema(
        operation_id="getSignatures",
        description="Every digital signature, checked with pyHanko; "
        "unknownCertificate is true unless the certificate chains to a trusted root "
        "(none is configured).",
        responses={200: wire.SignaturesSerializer},
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.signatures(structure.signatures(doc)))


class PrintableView(APIView):
    @extend_schema(
        operation_id="getPrintableDocument",
        description="The document's PDF with an OpenAction that opens the print "
        "dialog.",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, document_id: str) -> FileResponse:
        doc = selectors.document_get(document_id, request_owner_id(request))
        path = structure.printable_copy(doc)
        response = FileResponse(
            path.open("rb"),
            content_type="application/pdf",
            filename=doc.download_name.rsplit(".", 1)[0] + ".pdf",
        )
        response["Cache-Control"] = "private, max-age=31536000, immutable"
        return response
