"""POST /accessor/load and POST /connector/documents: documents opened from a
URL or from a REST provider, answered with their id like an upload."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from connectors import services
from connectors.serializers import DocumentAccessorSerializer, DocumentIdSerializer
from transformsvc.parsers import StrictJSONParser

ID_EXAMPLE = OpenApiExample(
    "The document's id",
    value={"id": "b64_NDNiMmI0NjctZGZlOS00MjgzLWExZWYtMjVkNGIyNTQ5Nzgw"},
    response_only=True,
)


def _answer(document_id: str) -> Response:
    return Response(
        {"id": document_id},
        headers={"Location": "/documents/" + quote(document_id, safe="")},
    )


class AccessorLoadView(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        operation_id="loadDocumentAccessor",
        summary="Open the document at a URL",
        description="The body is the original's DocumentAccessor; its `url` is "
        "fetched exactly as `documentUrl` of POST /documents: http or https only, "
        "to public addresses unless the host is in TRANSFORMSVC_URL_ALLOWLIST "
        "(checked after DNS resolution and on every redirect), with the fetch's "
        "time and size limits. A refused URL is a 400 naming why. The document "
        "is stored like an upload and converted as one.",
        request=DocumentAccessorSerializer,
        responses={200: DocumentIdSerializer},
        examples=[
            OpenApiExample(
                "A URL",
                value={"url": "https://example.com/document.pdf"},
                request_only=True,
            ),
            ID_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        body = DocumentAccessorSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        doc = services.accessor_load(
            url=body.validated_data["url"],
            title=body.validated_data.get("documentTitle") or None,
            owner_id=request_owner_id(request),
        )
        return _answer(doc.id)


class ConnectorDocumentsView(APIView):
    parser_classes = [FormParser, StrictJSONParser]

    @extend_schema(
        operation_id="openConnectorDocument",
        summary="Open a document through a configured REST provider",
        description="The provider named by `X-Provider-ID` (else "
        "TRANSFORMSVC_CONNECTOR_DEFAULT) is asked for `GET <base URL>/documents` "
        "with the request's parameters (form body, or query string) that it "
        "takes; the answer (a file, or a JSON ProviderFolder whose files are "
        "fetched in turn and opened as a container) is stored like an upload. "
        "The same parameters open the same document again without fetching it. "
        "Fetched with the checks of documentUrl (the provider's own host counts "
        "as allowlisted). 400 for an unknown provider or no parameter, 403 when "
        "the provider denies access, 404 when it has no such document, 502 when "
        "it cannot be reached or answers otherwise. With no provider named and "
        "no default, a `url` parameter opens the document at that URL as "
        "/accessor/load does (the original's fallback).",
        parameters=[
            OpenApiParameter(
                "X-Provider-ID",
                str,
                location=OpenApiParameter.HEADER,
                required=False,
                description="The provider's id in TRANSFORMSVC_CONNECTORS",
            )
        ],
        request={
            "application/x-www-form-urlencoded": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "example": {"path": "contracts/2026/acme.pdf"},
            }
        },
        responses={200: DocumentIdSerializer},
        examples=[ID_EXAMPLE],
    )
    def post(self, request: Request) -> Response:
        doc = services.connector_open(
            provider_id=request.headers.get("X-Provider-ID") or None,
            params=_params(request),
            owner_id=request_owner_id(request),
        )
        return _answer(doc.id)


def _params(request: Request) -> dict[str, str]:
    """The query string's parameters, then the body's (form or JSON object)."""
    found = {k: v for k, v in request.query_params.items() if isinstance(v, str)}
    data: Any = request.data
    if hasattr(data, "items"):
        found.update({str(k): str(v) for k, v in data.items() if isinstance(v, str)})
    return found
