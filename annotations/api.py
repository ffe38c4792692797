"""HTTP endpoints of the annotation store (/annotation), its policy, and the
FDF/XFDF conversion (/annotations/conversion)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from annotations import selectors, services
from annotations.serializers import (
    AnnotationIdsSerializer,
    ConversionQuerySerializer,
    DocumentQuerySerializer,
    PolicyQuerySerializer,
    PolicySerializer,
    StoredAnnotationsSerializer,
    policy,
    stored,
)
from documents.parsers import RawStreamParser
from documents.selectors import document_get
from transformsvc.problems import PayloadTooLarge

MAX_CONVERSION_BYTES = 64 * 1024 * 1024

HIGHLIGHT = {
    "id": {"id": "a30fe414-4202-4781-b010-be0b62909192"},
    "type": "Highlight",
    "page": 0,
    "documentId": {"id": "invoice-2024-117"},
    "position": {"x": 72, "y": 86, "w": 120, "h": 18},
    "color": {"r": 255, "g": 255, "b": 0},
    "contents": "check the amount",
}
PENDING_REDACTION = {
    "id": {"id": "redact-1"},
    "type": "com.arondor.viewer.annotation.api.RedactElemType",
    "page": 0,
    "documentId": {"id": "invoice-2024-117"},
    "position": {"x": 70, "y": 85, "w": 200, "h": 20},
    "reason": "(b)(6)",
}
STORED = {"annotations": [HIGHLIGHT, PENDING_REDACTION]}
SAVE = {"annotations": [{k: v for k, v in HIGHLIGHT.items() if k != "id"}]}
STORE_EXAMPLES = [
    OpenApiExample("A new highlight", value=SAVE, request_only=True),
    OpenApiExample("As stored, with ids", value=STORED, response_only=True),
]
POLICY = {
    "canCreateAnnotations": True,
    "textAnnotationsSupportHtml": True,
    "textAnnotationsSupportReply": True,
    "textAnnotationsSupportStatus": True,
    "textAnnotationsCommentSupportReply": True,
    "annotationsSupportSecurity": False,
    "availableSecurityLevels": None,
    "annotationTemplateCatalog": None,
    "annotationCreationRuleCatalog": None,
    "availableRedactReasons": [
        {"symbolicName": "(b)(6)", "displayName": {"en": "Personal privacy"}},
        {
            "symbolicName": "(b)(7)",
            "displayName": {"en": "Law enforcement records"},
        },
    ],
    "defaultRedactReasons": None,
    "annotationTypes": [
        "com.vendor.viewer.annotation.api.FreetextElemType",
        "com.vendor.viewer.annotation.api.LineElemType",
        "com.vendor.viewer.annotation.api.RedactElemType",
        "com.vendor.viewer.annotation.api.RedactTextElemType",
        "com.vendor.viewer.annotation.api.SquareElemType",
        "com.vendor.viewer.annotation.api.TextElemType",
    ],
}
STORE = (
    " The store keeps the viewer's annotations of a document as sent (any "
    "`type`; `page` from 0); orders do not read it: an order applies the "
    "annotations of its own body."
)


def _document(request: Request) -> Any:
    query = DocumentQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return document_get(query.validated_data["documentId"], request_owner_id(request))


def _specs(request: Request) -> Any:
    body = StoredAnnotationsSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    return body.validated_data["annotations"]


class AnnotationStoreView(APIView):
    @extend_schema(
        operation_id="getStoredAnnotations",
        summary="List the stored annotations of a document",
        description="The original's annotation store: every annotation saved "
        "on the document `documentId`, as `{annotations: [...]}`. 404 for an "
        "unknown document." + STORE,
        parameters=[DocumentQuerySerializer],
        responses={200: StoredAnnotationsSerializer},
        examples=[STORE_EXAMPLES[1]],
    )
    def get(self, request: Request) -> Response:
        doc = _document(request)
        return Response(
            stored(list(selectors.annotations_of(doc, request_owner_id(request))))
        )

    @extend_schema(
        operation_id="createStoredAnnotations",
        summary="Save annotations of a document",
        description="Save annotations on the document (one with a stored id "
        "replaces it; one without gets a new id); answers them as stored, "
        "with their ids." + STORE,
        examples=STORE_EXAMPLES,
        parameters=[DocumentQuerySerializer],
        request=StoredAnnotationsSerializer,
        responses={200: StoredAnnotationsSerializer},
    )
    def put(self, request: Request) -> Response:
        doc = _document(request)
        rows = services.annotations_save(
            doc=doc, specs=_specs(request), owner_id=request_owner_id(request)
        )
        return Response(stored(rows))

    @extend_schema(
        operation_id="updateStoredAnnotations",
        summary="Save or update annotations of a document",
        description="Each annotation is saved: one with the id of a stored "
        "annotation replaces it, one with a new id (or none) is added, as the "
        "original saves or updates. Answers them as stored." + STORE,
        examples=STORE_EXAMPLES,
        parameters=[DocumentQuerySerializer],
        request=StoredAnnotationsSerializer,
        responses={200: StoredAnnotationsSerializer},
    )
    def post(self, request: Request) -> Response:
        doc = _document(request)
        rows = services.annotations_save(
            doc=doc, specs=_specs(request), owner_id=request_owner_id(request)
        )
        return Response(stored(rows))

    @extend_schema(
        operation_id="deleteStoredAnnotations",
        summary="Delete stored annotations of a document, by id",
        description="Removes the annotations whose ids the body lists "
        "(`{annotations: [{id: {id}}]}` or string ids; other fields are "
        "ignored); answers the removed ones. An id the store does not hold is "
        "skipped.",
        examples=[
            OpenApiExample(
                "One id",
                value={"annotations": [{"id": {"id": "redact-1"}}]},
                request_only=True,
            ),
            OpenApiExample(
                "The removed annotation",
                value={"annotations": [PENDING_REDACTION]},
                response_only=True,
            ),
        ],
        parameters=[DocumentQuerySerializer],
        request=AnnotationIdsSerializer,
        responses={200: StoredAnnotationsSerializer},
    )
    def delete(self, request: Request) -> Response:
        doc = _document(request)
        body = AnnotationIdsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        rows = services.annotations_delete(
            doc=doc, ids=body.ids(), owner_id=request_owner_id(request)
        )
        return Response(stored(rows))


class AnnotationPolicyView(APIView):
    @extend_schema(
        operation_id="getAnnotationPolicy",
        summary="Read what annotations a viewer may create, and redaction reasons",
        description="The original's AnnotationCreationPolicy (its defaults), "
        "the redaction reasons a redaction's `reason` may name "
        "(`TRANSFORMSVC_REDACT_REASONS`, the US FOIA exemptions by default) "
        "and `annotationTypes`: the types transformation orders draw or "
        "redact. The same for every document; `documentId`, when given, must "
        "be known.",
        parameters=[PolicyQuerySerializer],
        examples=[OpenApiExample("The defaults", value=POLICY)],
        responses={200: PolicySerializer},
    )
    def get(self, request: Request) -> Response:
        query = PolicyQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        kinds, reasons = selectors.annotation_policy(
            query.validated_data.get("documentId"), request_owner_id(request)
        )
        return Response(policy(kinds, reasons))


class AnnotationConversionView(APIView):
    parser_classes = [RawStreamParser]

    @extend_schema(
        operation_id="convertAnnotations",
        summary="Convert annotations between FDF and XFDF",
        description="The annotations of the body (an FDF or XFDF file, as "
        "`sourceType` says, or a PDF carrying them) in `targetType`: "
        "`application/vnd.fdf` or `application/vnd.adobe.xfdf`. With an empty "
        "body, those of the document `documentId`'s PDF. Bodies up to 64 MiB.",
        parameters=[
            ConversionQuerySerializer,
            OpenApiParameter("Accept", str, location=OpenApiParameter.HEADER),
        ],
        request={"application/octet-stream": OpenApiTypes.BINARY},
        responses={
            (200, "application/vnd.adobe.xfdf"): OpenApiTypes.BINARY,
            (200, "application/vnd.fdf"): OpenApiTypes.BINARY,
        },
    )
    def post(self, request: Request) -> HttpResponse:
        query = ConversionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        data = _read_body(request)
        converted = services.annotations_convert(
            data=data,
            source=params["sourceType"],
            target=params["targetType"],
            document_id=params.get("documentId"),
            owner_id=request_owner_id(request),
        )
        return HttpResponse(
            converted, content_type=services.CONTENT_TYPES[params["targetType"]]
        )


def _read_body(request: Request) -> bytes:
    stream: Any = request.data
    if not hasattr(stream, "read"):
        return b""
    data = stream.read(MAX_CONVERSION_BYTES + 1)
    if len(data) > MAX_CONVERSION_BYTES:
        raise PayloadTooLarge(f"annotation files are limited to {MAX_CONVERSION_BYTES}")
    return bytes(data)
