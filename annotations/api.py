"""HTTP endpoints of the annotation store (/annotation), its policy, and the
FDF/XFDF conversion (/annotations/conversion)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
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
        parameters=[DocumentQuerySerializer],
        responses={200: StoredAnnotationsSerializer},
    )
    def get(self, request: Request) -> Response:
        doc = _document(request)
        return Response(
            stored(list(selectors.annotations_of(doc, request_owner_id(request))))
        )

    @extend_schema(
        operation_id="createStoredAnnotations",
        description="Save annotations on the document (one with a stored id "
        "replaces it); answers them as stored, with their ids.",
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
        description="Replace stored annotations by id (an unknown id is a 404).",
        parameters=[DocumentQuerySerializer],
        request=StoredAnnotationsSerializer,
        responses={200: StoredAnnotationsSerializer},
    )
    def post(self, request: Request) -> Response:
        doc = _document(request)
        rows = services.annotations_update(
            doc=doc, specs=_specs(request), owner_id=request_owner_id(request)
        )
        return Response(stored(rows))

    @extend_schema(
        operation_id="deleteStoredAnnotations",
        description="Remove the annotations listed by id; answers the removed ones.",
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
        parameters=[PolicyQuerySerializer],
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
        description="The annotations of the body (FDF, XFDF, or a PDF) in "
        "`targetType`. With an empty body, those of the document `documentId`.",
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
