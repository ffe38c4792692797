"""Downloads of a document's file, as uploaded or as another format, whole or by
byte ranges."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import selectors, structure
from documents.downloads import chunk_response, file_response
from documents.renditions.formats import document_in_format
from documents.serializers import FileQuerySerializer

FORMAT = OpenApiParameter(
    "format",
    str,
    description="none: the file as uploaded; pdf (or rendered): the PDF "
    "its pages are read from; another format: its conversion",
)


class DocumentFileView(APIView):
    @extend_schema(
        operation_id="getDocumentFile",
        parameters=[FORMAT],
        responses={
            # The stored type: application/pdf, application/zip, image/png ...
            (200, "*/*"): OpenApiTypes.BINARY,
            (206, "*/*"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponseBase:
        query = FileQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        target = document_in_format(doc, query.validated_data.get("format") or "")
        return file_response(
            request,
            target.file.open("rb"),
            size=target.size,
            content_type=target.mime_type,
            filename=target.download_name,
        )


class DocumentChunkView(APIView):
    @extend_schema(
        operation_id="getDocumentFileChunk",
        description="Bytes `x` to `y` (inclusive) of the file given by `format`, "
        "asked for with `Range: bytes=x-y`. A missing, malformed, negative or "
        "descending range is a 400; a range starting past the end a 416.",
        parameters=[
            FORMAT,
            OpenApiParameter(
                "Range",
                str,
                location=OpenApiParameter.HEADER,
                required=True,
                description="bytes=<first>-<last>, e.g. bytes=0-1023",
            ),
        ],
        responses={(206, "*/*"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, document_id: str) -> HttpResponseBase:
        query = FileQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        doc = selectors.document_get(document_id, request_owner_id(request))
        target = document_in_format(doc, query.validated_data.get("format") or "")
        return chunk_response(
            request,
            target.file.open("rb"),
            size=target.size,
            content_type=target.mime_type,
            filename=target.download_name,
        )


XFDF_TYPE = "application/vnd.adobe.xfdf"


class DocumentAnnotationsFileView(APIView):
    @extend_schema(
        operation_id="getDocumentAnnotationsFile",
        description="The annotations the document's PDF carries, as XFDF.",
        responses={(200, XFDF_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return HttpResponse(structure.annotations_xfdf(doc), content_type=XFDF_TYPE)
