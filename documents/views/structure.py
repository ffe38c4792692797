"""A document's outline, named destinations, signatures and printable copy."""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import examples, selectors, structure
from documents import structure_serializers as wire


class BookmarksView(APIView):
    @extend_schema(
        operation_id="getBookmarks",
        summary="Read a document's outline (bookmarks)",
        description="The PDF's outline as a tree: each entry's title, target "
        "page (from 0; -1 when it leads nowhere in the document), the target "
        "point on the displayed page, whether it opens expanded, and its "
        "children. An empty list for a document without outline.",
        responses={200: wire.BookmarksSerializer},
        examples=[OpenApiExample("Two levels", value=examples.BOOKMARKS)],
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.bookmarks(structure.bookmarks(doc)))


class DestinationsView(APIView):
    @extend_schema(
        operation_id="getNamedDestinations",
        summary="List a document's named destinations",
        description="The PDF's named destinations (what links and bookmarks "
        "point at by name): each name, its page (from 0; -1 when it leads "
        "nowhere) and its target point on the displayed page.",
        responses={200: wire.NamedDestinationsSerializer},
        examples=[OpenApiExample("One destination", value=examples.DESTINATIONS)],
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.named_destinations(doc.id, structure.destinations(doc)))


class SignaturesView(APIView):
    @extend_schema(
        operation_id="getSignatures",
        summary="List the document's digital signatures, checked",
        description="Every signature field that holds a signature, checked with "
        "pyHanko; unknownCertificate is true unless the certificate chains to a "
        "trusted root (none is configured). A signature that cannot be checked "
        "(its CMS data does not parse, its byte range is broken) is listed with "
        "what its dictionary says (/Name as signer, /M as date, /Reason, "
        "/Location), signatureException true and the reason in `error`: one bad "
        "signature never fails the whole answer.",
        responses={200: wire.SignaturesSerializer},
        examples=[
            OpenApiExample(
                "One good signature, one unreadable",
                response_only=True,
                value={
                    "signatures": [
                        {
                            "name": "Sig1",
                            "signer": "BREMFORD,MICHAEL PAUL",
                            "date": "2019-09-25T14:27:07.000+01:00",
                            "reason": None,
                            "location": None,
                            "wrongIntegrity": True,
                            "unknownCertificate": True,
                            "signatureException": True,
                            "signatureValid": False,
                            "documentIntact": False,
                            "coversWholeDocument": False,
                            "error": "Error parsing asn1crypto.cms.ContentInfo",
                        },
                        {
                            "name": "Signature2",
                            "signer": "Common Name: John Doe",
                            "date": "2026-01-15T10:30:00.000+00:00",
                            "reason": "Approval",
                            "location": "Paris",
                            "wrongIntegrity": False,
                            "unknownCertificate": True,
                            "signatureException": False,
                            "signatureValid": True,
                            "documentIntact": True,
                            "coversWholeDocument": True,
                            "error": None,
                        },
                    ],
                    "wronglySigned": True,
                    "integrity": False,
                },
            )
        ],
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return Response(wire.signatures(structure.signatures(doc)))


class PrintableView(APIView):
    @extend_schema(
        operation_id="getPrintableDocument",
        summary="Download a print-ready PDF of the document",
        description="The document's PDF (any format with pages; for a container "
        "such as a zip or an e-mail, one PDF of its parts in order) whose "
        "/OpenAction opens the print dialog and then closes the document. The "
        "action is written as the original writes it, an uncompressed object "
        "`<<\\n/Type /Action\\n/S /JavaScript\\n/JS "
        "(this.print\\(\\);this.closeDoc\\(true\\))\\n>>`. 415 for a document "
        "without pages (media).",
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
