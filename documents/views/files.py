"""Downloads of a document's file, as uploaded or as another format, whole or by
byte ranges."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from documents import selectors, structure
from documents.downloads import chunk_response, file_response
from documents.serializers import FileQuerySerializer
from documents.services.derived import document_download
from documents.storage import open_stored

FORMAT = OpenApiParameter(
    "format",
    str,
    description="none: the file as uploaded; its own format (docx, png...): the "
    "same; pdf (or rendered): the PDF its pages are read from, for a container "
    "(an e-mail, an archive, a multi-output order's result) one PDF of its parts "
    "in order; txt: its text, UTF-8, a form feed between pages (a scan: its "
    "recognised words); md: its text as Markdown; another format: the rendition "
    "a conversion order made (406 when there is none). pdf, txt and md are made "
    "the first time they are asked for and kept.",
    examples=[OpenApiExample("text", value="txt"), OpenApiExample("PDF", value="pdf")],
)


class DocumentFileView(APIView):
    @extend_schema(
        operation_id="getDocumentFile",
        summary="Download a document, as uploaded or in another format",
        description="Streamed, with `Range` support (206/416). Text and Markdown "
        "of any document with pages, and the one PDF of a container's parts, are "
        "made on demand (once) and kept as renditions of the document.",
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
        target = document_download(doc, query.validated_data.get("format") or "")
        return file_response(
            request,
            open_stored(target),
            size=target.size,
            content_type=target.mime_type,
            filename=target.download_name,
        )


class DocumentChunkView(APIView):
    @extend_schema(
        operation_id="getDocumentFileChunk",
        summary="Download bytes x to y of a document in a format",
        description="Bytes `x` to `y` (inclusive) of the file given by `format`, "
        "asked for with `Range: bytes=x-y`. A missing, malformed, negative or "
        "descending range is a 400; a range starting past the end a 416. `format` "
        "as for /file: `?format=txt` on a PDF gives bytes of its text.",
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
        target = document_download(doc, query.validated_data.get("format") or "")
        return chunk_response(
            request,
            open_stored(target),
            size=target.size,
            content_type=target.mime_type,
            filename=target.download_name,
        )


XFDF_TYPE = "application/vnd.adobe.xfdf"


class DocumentAnnotationsFileView(APIView):
    @extend_schema(
        operation_id="getDocumentAnnotationsFile",
        summary="Download the annotations a document's PDF carries, as XFDF",
        description="The annotations inside the document's PDF (not those of "
        "the annotation store), as an XFDF file "
        "(`application/vnd.adobe.xfdf`); an empty XFDF when it has none.",
        responses={(200, XFDF_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        doc = selectors.document_get(document_id, request_owner_id(request))
        return HttpResponse(structure.annotations_xfdf(doc), content_type=XFDF_TYPE)
