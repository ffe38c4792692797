"""The annotation store one annotation at a time, under its document (the
original's 2026 API, which its new viewer calls): list, ids, create, read,
replace, delete. The same store as /annotation: what one saves the other lists.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from annotations import selectors, services
from annotations.serializers import (
    ANNOTATION_SCHEMA,
    AnnotationField,
    AnnotationIdSerializer,
    annotation_spec,
)
from documents.models import Document
from documents.selectors import document_get

ANNOTATION_ID = OpenApiParameter(
    "annotation_id",
    str,
    location=OpenApiParameter.PATH,
    description="The annotation's id (`id` or `id.id` of its JSON)",
)
HIGHLIGHT = {
    "id": {"id": "annot-001"},
    "type": "Highlight",
    "page": 0,
    "position": {"x": 100.0, "y": 200.0, "w": 150.0, "h": 20.0},
}
EXAMPLE = OpenApiExample(
    "A highlight", value=HIGHLIGHT, request_only=False, response_only=False
)


def _document(request: Request, document_id: str) -> Document:
    return document_get(document_id, request_owner_id(request))


def _answer(row: Any) -> Response:
    return Response(AnnotationField().to_representation(row))


class DocumentAnnotationsView(APIView):
    @extend_schema(
        operation_id="listDocumentAnnotations",
        summary="List the annotations of a document",
        description="Every annotation stored on the document, by page then age, "
        "as a JSON array (those /annotation?documentId= lists).",
        responses={200: {"type": "array", "items": ANNOTATION_SCHEMA}},
        examples=[OpenApiExample("One highlight", value=[HIGHLIGHT])],
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = _document(request, document_id)
        rows = selectors.annotations_of(doc, request_owner_id(request))
        return Response([AnnotationField().to_representation(r) for r in rows])

    @extend_schema(
        operation_id="createDocumentAnnotation",
        summary="Save one annotation on a document",
        description="The body is one annotation (`type` and `page` required). "
        "Without an id it gets one (a UUID); with the id of a stored annotation "
        "it replaces it. Answers the annotation as stored, with its id.",
        request={"application/json": ANNOTATION_SCHEMA},
        responses={200: ANNOTATION_SCHEMA},
        examples=[EXAMPLE],
    )
    def post(self, request: Request, document_id: str) -> Response:
        doc = _document(request, document_id)
        [row] = services.annotations_save(
            doc=doc,
            specs=[annotation_spec(request.data)],
            owner_id=request_owner_id(request),
        )
        return _answer(row)


class DocumentAnnotationIdsView(APIView):
    @extend_schema(
        operation_id="listDocumentAnnotationIds",
        summary="List the ids of a document's annotations",
        description="The ids of every annotation stored on the document, by "
        "page then age, as `{id}` objects. 404 for an unknown document.",
        responses={200: AnnotationIdSerializer(many=True)},
        # Shown as a list of it (the answer is an array).
        examples=[OpenApiExample("One", value={"id": "annot-001"})],
    )
    def get(self, request: Request, document_id: str) -> Response:
        doc = _document(request, document_id)
        rows = selectors.annotations_of(doc, request_owner_id(request))
        ids = rows.values_list("annotation_id", flat=True)
        return Response([{"id": annotation_id} for annotation_id in ids])


class DocumentAnnotationView(APIView):
    @extend_schema(
        operation_id="getDocumentAnnotation",
        summary="Read one annotation of a document",
        description="The annotation as stored, with its id and document. 404 "
        "when the document has no annotation of that id.",
        parameters=[ANNOTATION_ID],
        responses={200: ANNOTATION_SCHEMA},
        examples=[EXAMPLE],
    )
    def get(self, request: Request, document_id: str, annotation_id: str) -> Response:
        doc = _document(request, document_id)
        return _answer(
            selectors.annotation_get(
                doc=doc, annotation_id=annotation_id, owner_id=request_owner_id(request)
            )
        )

    @extend_schema(
        operation_id="replaceDocumentAnnotation",
        summary="Replace one annotation of a document",
        description="The body is the annotation as it should now be; its id, if "
        "given, must be the path's. 404 when the document has no annotation of "
        "that id. Answers the annotation as stored.",
        parameters=[ANNOTATION_ID],
        request={"application/json": ANNOTATION_SCHEMA},
        responses={200: ANNOTATION_SCHEMA},
        examples=[EXAMPLE],
    )
    def put(self, request: Request, document_id: str, annotation_id: str) -> Response:
        doc = _document(request, document_id)
        row = services.annotation_replace(
            doc=doc,
            annotation_id=annotation_id,
            spec=annotation_spec(request.data),
            owner_id=request_owner_id(request),
        )
        return _answer(row)

    @extend_schema(
        operation_id="deleteDocumentAnnotation",
        summary="Delete one annotation of a document, replies first",
        description="Removes the annotation and, first, its replies (annotations "
        "whose `inreplyto` names it, and their own replies). 200 with an empty "
        "body; 404 when the document has no annotation of that id.",
        parameters=[ANNOTATION_ID],
        responses={200: None},
    )
    def delete(
        self, request: Request, document_id: str, annotation_id: str
    ) -> HttpResponse:
        doc = _document(request, document_id)
        services.annotation_remove(
            doc=doc, annotation_id=annotation_id, owner_id=request_owner_id(request)
        )
        return HttpResponse(status=200)
