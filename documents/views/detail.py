"""A document's metadata, its deletion, its availability, its layout."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiExample,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import examples, selectors, services
from documents.layouts import document_layout
from documents.serializers import (
    DocumentContainerSerializer,
    DocumentIdSerializer,
    DocumentLayoutSerializer,
    DocumentSerializer,
)


class DocumentDetailView(APIView):
    @extend_schema(
        operation_id="getDocument",
        summary="Read a document's metadata",
        description="The original's metadata (`documentId`, `documentTitle`, "
        "`format`, `renderedMimeType`, `renderedFormat`, `conversionOrderIds`, "
        "`documentMetadata`, `urlParameters`) and this service's own (`id`, "
        "`title`, `mimeType`, `size`, `sha256`, `pageCount`, `createdDate`). "
        "Answers at once, also while the document is being converted. 404 for "
        "an unknown or deleted id.",
        responses={200: DocumentSerializer},
        examples=[OpenApiExample("A PDF of three pages", value=examples.DOCUMENT)],
    )
    def get(self, request: Request, document_id: str) -> Response:
        described = selectors.document_described(document_id, request_owner_id(request))
        return Response(DocumentSerializer.from_document(*described))

    @extend_schema(
        operation_id="deleteDocument",
        summary="Delete a document",
        description="Deletes the document, its parts and its renditions; "
        "answers its id. 404 for an unknown or already deleted id.",
        responses={200: DocumentIdSerializer},
        examples=[OpenApiExample("The deleted id", value=examples.ID)],
    )
    def delete(self, request: Request, document_id: str) -> Response:
        services.document_delete(
            document_id=document_id, owner_id=request_owner_id(request)
        )
        return Response({"id": document_id})


class DocumentCheckView(APIView):
    @extend_schema(
        operation_id="checkDocument",
        summary="Check that the service holds a document",
        description="200 with an empty body for every document the service "
        "holds (PDFs, Office files, e-mails, archives, images, media, files "
        "stored as they are); 404 only for an unknown id. A document being "
        "converted is waited for, as the layout waits (503 with Retry-After "
        "when the conversion outlasts the wait).",
        responses={200: None},
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        selectors.document_checked(document_id, request_owner_id(request))
        return HttpResponse(status=200)


class DocumentLayoutView(APIView):
    @extend_schema(
        operation_id="getDocumentLayout",
        summary="Read a document's page sizes, or a container's parts",
        description="Each page as displayed: width and height in points "
        "(rotation applied), `rotation`, `dpi` (72 for PDFs, an image's own). "
        "A container (e-mail, archive, portfolio) answers its parts' layouts "
        "nested (`DocumentContainer`, `children`), each part a document of "
        "its own. Waits for a conversion under way (503 with Retry-After if "
        "it outlasts the wait); a failed one answers `renditionError`.",
        examples=[
            OpenApiExample("A PDF of three pages", value=examples.LAYOUT),
            OpenApiExample("An e-mail with an attachment", value=examples.CONTAINER),
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="Layout",
                serializers=[DocumentLayoutSerializer, DocumentContainerSerializer],
                resource_type_field_name=None,
            )
        },
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = selectors.document_get(
            document_id, request_owner_id(request), with_layout=True
        )
        return Response(document_layout(doc))
