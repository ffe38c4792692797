"""A document's metadata, its deletion, its availability, its layout."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import selectors, services
from documents.layouts import document_layout
from documents.serializers import (
    DocumentContainerSerializer,
    DocumentIdSerializer,
    DocumentLayoutSerializer,
    DocumentSerializer,
)


class DocumentDetailView(APIView):
    @extend_schema(operation_id="getDocument", responses={200: DocumentSerializer})
    def get(self, request: Request, document_id: str) -> Response:
        described = selectors.document_described(document_id, request_owner_id(request))
        return Response(DocumentSerializer.from_document(*described))

    @extend_schema(operation_id="deleteDocument", responses={200: DocumentIdSerializer})
    def delete(self, request: Request, document_id: str) -> Response:
        services.document_delete(
            document_id=document_id, owner_id=request_owner_id(request)
        )
        return Response({"id": document_id})


class DocumentCheckView(APIView):
    @extend_schema(
        operation_id="checkDocument",
        description="200 with an empty body when the document's rendition is "
        "available, 404 otherwise.",
        responses={200: None},
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        selectors.document_available(document_id, request_owner_id(request))
        return HttpResponse(status=200)


class DocumentLayoutView(APIView):
    @extend_schema(
        operation_id="getDocumentLayout",
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
