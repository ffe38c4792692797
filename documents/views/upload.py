"""POST /documents: upload the raw bytes (streamed) or fetch documentUrl."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import examples, services
from documents.layouts import document_layout
from documents.library import documents_listed
from documents.models import Document
from documents.parsers import RawStreamParser
from documents.selectors import documents_visible
from documents.serializers import (
    DocumentContainerSerializer,
    DocumentIdSerializer,
    DocumentLayoutSerializer,
    DocumentListQuerySerializer,
    DocumentSummarySerializer,
    LayoutRegistrationSerializer,
    UploadQuerySerializer,
)
from documents.storage import stream_sha256
from documents.views.detail import DocumentDetailView
from idempotency.api import EMPTY_BODY, idempotent
from transformsvc.conf import service
from transformsvc.pagination import paginate_array
from transformsvc.parsers import StrictJSONParser


def document_location(document_id: str) -> str:
    return "/documents/" + quote(document_id, safe="")


class DocumentUploadView(APIView):
    """/documents: upload (POST), or list the caller's documents (GET)."""

    parser_classes = [RawStreamParser]

    @extend_schema(
        operation_id="listDocuments",
        summary="List the caller's documents",
        description="Newest first, one page (`page`, `pageSize`; the `Link` header "
        "points at the next and previous pages, `X-Total-Count` gives the total). "
        "By default what people uploaded or had fetched; `show` adds parts of "
        "containers, renditions, results of orders; `format` and `q` narrow it.",
        parameters=[DocumentListQuerySerializer],
        responses={200: DocumentSummarySerializer(many=True)},
        # Shown as a list of it (the answer is an array).
        examples=[OpenApiExample("An upload", value=examples.SUMMARY)],
    )
    def get(self, request: Request) -> Response:
        query = DocumentListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        found = documents_listed(
            documents_visible(request_owner_id(request)).defer("layout"),
            show=params["show"],
            formats=params.get("format") or (),
            words=params.get("q", ""),
        )
        return paginate_array(request, found, DocumentSummarySerializer, params)

    @extend_schema(
        operation_id="uploadDocument",
        summary="Upload a document (raw bytes) or fetch it from a URL",
        description="The body is the file itself, sent as "
        "`application/octet-stream` (streamed; any format the README lists: "
        "PDF, Office, e-mail, archives, images, text...), or empty with "
        "`documentUrl` to have the service fetch it. Answers at once with the "
        "new id (and its `Location`); conversion, unpacking and OCR run on a "
        "worker and readers wait for them. `documentId` chooses the id (409 "
        "if taken); a password-protected file opens with its password in "
        "`X-Document-Password`. A format no engine reads is refused with 415 "
        "unless `failOnUnsupported=false`; a body over the size limit 413.",
        parameters=[UploadQuerySerializer],
        request={"application/octet-stream": OpenApiTypes.BINARY},
        responses={200: DocumentIdSerializer},
        examples=[
            OpenApiExample("The new document's id", value={"id": "invoice-2024-117"})
        ],
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
        return stream_sha256(stream, service().max_upload_bytes)


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
        password=request.headers.get(services.PASSWORD_HEADER) or None,
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
        summary="Register a document by its layout, or upload it",
        description="The original's two readings: a JSON body (a "
        "DocumentLayout: `documentId` and `pageDimensionsList`, or `pageCount` "
        "and `pages`) registers a document the service does not hold the "
        "bytes of, by its page sizes; raw bytes (`application/octet-stream`) "
        "are uploaded as `POST /documents` does. Both answer the document's "
        "layout, as `GET /documents/{id}/layout`.",
        examples=[
            OpenApiExample(
                "Two pages, the second landscape",
                value=examples.REGISTERED_LAYOUT,
                request_only=True,
            ),
            OpenApiExample(
                "The layout",
                value=examples.LAYOUT,
                response_only=True,
                status_codes=["200"],
            ),
        ],
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
