"""POST /documents: upload the raw bytes (streamed) or fetch documentUrl."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import services
from documents.layouts import document_layout
from documents.models import Document
from documents.parsers import RawStreamParser
from documents.serializers import (
    DocumentContainerSerializer,
    DocumentIdSerializer,
    DocumentLayoutSerializer,
    LayoutRegistrationSerializer,
    UploadQuerySerializer,
)
from documents.storage import stream_sha256
from documents.views.detail import DocumentDetailView
from idempotency.api import EMPTY_BODY, idempotent
from transformsvc.parsers import StrictJSONParser


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
        return idempotent(
            request,
            "document-upload",
            lambda: self.create(request),
            lambda: self.body_digest(request),
        )

    def create(self, request: Request) -> tuple[Response, str]:
        """The answer, and the sha256 of the body (the document's own, as spooled)."""
        doc = _upload(request)
        response = Response(
            {"id": doc.id}, headers={"Location": document_location(doc.id)}
        )
        uploaded = _stream(request, request.query_params) is not None
        return response, doc.sha256 if uploaded else EMPTY_BODY

    def body_digest(self, request: Request) -> str:
        """The body's sha256 for a retry, read in chunks and kept nowhere."""
        stream = _stream(request, request.query_params)
        if stream is None:
            return EMPTY_BODY
        return stream_sha256(stream, settings.TRANSFORMSVC["MAX_UPLOAD_BYTES"])


def _stream(request: Request, params: Any) -> Any:
    # The raw stream (RawStreamParser), or an empty mapping for an empty body.
    body: Any = request.data
    if hasattr(body, "read") and not params.get("documentUrl"):
        return body
    return None


def _upload(request: Request) -> Document:
    query = UploadQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    params = query.validated_data
    return services.document_create(
        stream=_stream(request, params),
        document_id=params.get("documentId"),
        title=params.get("documentTitle"),
        url=params.get("documentUrl"),
        fail_on_unsupported=params["failOnUnsupported"],
        owner_id=request_owner_id(request),
        declared_size=_content_length(request),
        ocr=params.get("ocr"),
    )


class DocumentLayoutUploadView(DocumentDetailView):
    """POST /documents/layout, in both of the original's readings: a JSON body
    registers a document from its layout; any other body is uploaded like POST
    /documents. Both answer the layout (the newer docs' clients expect no body and
    ignore it). GET and DELETE are those of a document whose id is "layout"."""

    parser_classes = [StrictJSONParser, RawStreamParser]

    @extend_schema(
        operation_id="uploadDocumentLayout",
        parameters=[UploadQuerySerializer],
        request={
            "application/json": LayoutRegistrationSerializer,
            "application/octet-stream": OpenApiTypes.BINARY,
        },
        responses={
            (200, "application/json"): PolymorphicProxySerializer(
                component_name="UploadedLayout",
                serializers=[DocumentLayoutSerializer, DocumentContainerSerializer],
                resource_type_field_name=None,
            )
        },
        description="JSON body: register the document by its layout. Raw bytes: "
        "upload them. Both answer the document's layout.",
    )
    def post(self, request: Request) -> Response:
        if (request.content_type or "").startswith("application/json"):
            body = LayoutRegistrationSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            doc = services.document_register_layout(
                document_id=body.validated_data["documentId"],
                title=body.validated_data.get("documentTitle"),
                mime_type=body.validated_data["mimeType"],
                pages=body.page_layout(),
                owner_id=request_owner_id(request),
            )
        else:
            doc = _upload(request)
        return Response(
            document_layout(Document.objects.get(pk=doc.pk)),
            headers={"Location": document_location(doc.id)},
        )

    @extend_schema(exclude=True)
    def get(self, request: Request, document_id: str = "layout") -> Response:
        return super().get(request, document_id)

    @extend_schema(exclude=True)
    def delete(self, request: Request, document_id: str = "layout") -> Response:
        return super().delete(request, document_id)


def _content_length(request: Request) -> int | None:
    value = request.META.get("CONTENT_LENGTH") or ""
    return int(value) if value.isdigit() else None
