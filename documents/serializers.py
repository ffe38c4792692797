"""Wire shapes of the documents API (names exactly as in the interface)."""

from __future__ import annotations

import base64
from typing import Any

from rest_framework import serializers

from documents.formats import format_of
from documents.library import FORMAT_NAMES, SHOWN, format_mimes
from documents.models import Document
from transformsvc.fields import IdField, StrictBooleanField, iso_ms


class UploadQuerySerializer(serializers.Serializer):
    documentId = serializers.CharField(
        required=False, allow_blank=False, max_length=512, trim_whitespace=False
    )
    documentTitle = serializers.CharField(
        required=False, allow_blank=True, max_length=1024, trim_whitespace=False
    )
    documentUrl = serializers.CharField(
        required=False, allow_blank=False, max_length=2048
    )
    failOnUnsupported = StrictBooleanField(required=False, default=True)
    ocr = serializers.ChoiceField(
        choices=["auto", "always", "never"],
        required=False,
        help_text="Which pages are recognised as scans: auto (pages without text "
        "whose images cover most of the page), always, never. Default: the "
        "service's setting (auto).",
    )


class DocumentListQuerySerializer(serializers.Serializer[Any]):
    """`GET /documents`: which documents, one page of them."""

    show = serializers.ChoiceField(
        choices=list(SHOWN),
        required=False,
        default="uploaded",
        help_text="uploaded (default: what people uploaded or had fetched), part "
        "(parts of e-mails and archives), rendition (PDFs made of Office files...), "
        "result (outputs of orders), layout (registered from a layout), all",
    )
    format = serializers.CharField(
        required=False,
        max_length=200,
        help_text="Short format names, comma separated: pdf, docx, xlsx, pptx, eml, "
        "msg, zip, png, jpg... (docx also finds docm and dotx, xlsx xlsm)",
    )
    q = serializers.CharField(
        required=False,
        max_length=500,
        help_text="Words of the title (all of them, any order, any case), the "
        "first characters of an id, or a SHA-256",
    )
    page = serializers.IntegerField(
        min_value=1, max_value=1_000_000, required=False, default=1
    )
    pageSize = serializers.IntegerField(
        min_value=1, max_value=500, required=False, default=50
    )

    def validate_format(self, value: str) -> list[str]:
        names = [n.strip().lower().lstrip(".") for n in value.split(",") if n.strip()]
        unknown = [n for n in names if not format_mimes(n)]
        if unknown:
            raise serializers.ValidationError(
                f"unknown format {unknown[0]!r}; give short names such as "
                f"{', '.join(FORMAT_NAMES)}"
            )
        return names


class DocumentSummarySerializer(serializers.Serializer[Any]):
    """One document of `GET /documents`."""

    id = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    format = serializers.SerializerMethodField()
    mimeType = serializers.CharField(source="mime_type")
    size = serializers.IntegerField()
    pageCount = serializers.IntegerField(source="page_count", allow_null=True)
    origin = serializers.CharField(help_text="UPLOAD, URL, RESULT, PART or LAYOUT")
    parentId = serializers.CharField(source="parent_id", allow_null=True)
    renditionOf = serializers.CharField(source="rendition_of_id", allow_null=True)
    createdDate = serializers.SerializerMethodField()

    def get_format(self, doc: Document) -> str:
        return doc.format or format_of(doc.mime_type)

    def get_createdDate(self, doc: Document) -> str | None:  # noqa: N802
        return iso_ms(doc.created_at)


class DocumentIdSerializer(serializers.Serializer):
    id = serializers.CharField()


class DocumentIdObjectSerializer(serializers.Serializer):
    id = serializers.CharField()


class DocumentSerializer(serializers.Serializer):
    """GET /documents/<id>: the original's metadata (its DFSDocumentAccessor) and,
    beside it, this service's own fields (id, title, mimeType, size, sha256...)."""

    documentId = DocumentIdObjectSerializer()
    documentTitle = serializers.CharField(allow_null=True)
    mimeType = serializers.CharField()
    format = serializers.CharField()
    renderedMimeType = serializers.CharField()
    renderedFormat = serializers.CharField()
    conversionOrderIds = serializers.DictField(child=DocumentIdObjectSerializer())
    documentMetadata = serializers.CharField(
        help_text='Base64 of the JSON {"metadataMap": {...}}, as the original'
    )
    urlParameters = serializers.ListField(child=serializers.DictField())
    id = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    size = serializers.IntegerField()
    sha256 = serializers.CharField()
    pageCount = serializers.IntegerField(allow_null=True)
    createdDate = serializers.CharField()

    @staticmethod
    def from_document(
        doc: Document, rendition: Document | None, conversions: dict[str, str]
    ) -> dict[str, Any]:
        rendered = rendition.mime_type if rendition is not None else doc.mime_type
        return {
            "documentId": {"id": doc.id},
            "documentTitle": doc.title,
            "mimeType": doc.mime_type,
            "format": doc.format or format_of(doc.mime_type),
            "renderedMimeType": rendered,
            "renderedFormat": format_of(rendered),
            "conversionOrderIds": {f: {"id": i} for f, i in conversions.items()},
            "documentMetadata": EMPTY_METADATA,
            "urlParameters": [],
            "id": doc.id,
            "title": doc.title,
            "size": doc.size,
            "sha256": doc.sha256,
            "pageCount": doc.page_count,
            "createdDate": iso_ms(doc.created_at),
        }


# The original's `documentMetadata`: Base64 of {"metadataMap":{}}.
EMPTY_METADATA = base64.b64encode(b'{"metadataMap":{}}').decode()


class PageDimensionsSerializer(serializers.Serializer):
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    rotation = serializers.IntegerField()
    dpi = serializers.IntegerField()
    pageLayers = serializers.ListField(child=serializers.DictField(), allow_null=True)


class DocumentLayoutSerializer(serializers.Serializer):
    type = serializers.CharField()
    documentId = DocumentIdObjectSerializer()
    documentTitle = serializers.CharField(allow_null=True)
    mimeType = serializers.CharField()
    pageDimensionsList = PageDimensionsSerializer(many=True)

    renditionError = serializers.CharField(required=False)


class DocumentContainerSerializer(serializers.Serializer[Any]):
    """A container's layout: each part's own layout (pages, or a container)."""

    type = serializers.CharField()
    documentId = DocumentIdObjectSerializer()
    documentTitle = serializers.CharField(allow_null=True)
    mimeType = serializers.CharField()
    children = serializers.ListField(child=serializers.DictField())
    renditionError = serializers.CharField(required=False)


class FileQuerySerializer(serializers.Serializer):
    format = serializers.CharField(required=False, allow_blank=True)


class RegisteredPageSerializer(serializers.Serializer[Any]):
    width = serializers.FloatField(min_value=0, max_value=1_000_000)
    height = serializers.FloatField(min_value=0, max_value=1_000_000)
    rotation = serializers.ChoiceField(choices=[0, 90, 180, 270], default=0)
    dpi = serializers.IntegerField(min_value=0, max_value=100_000, default=72)


class LayoutRegistrationSerializer(serializers.Serializer[Any]):
    """POST /documents/layout with JSON: a DocumentLayout (pageDimensionsList), or
    the newer docs' {documentId, pageCount, pages}."""

    documentId = IdField()
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )
    mimeType = serializers.CharField(
        required=False, default="application/pdf", max_length=127
    )
    # As many as the body's size limit lets through (DATA_UPLOAD_MAX_MEMORY_SIZE).
    pageDimensionsList = RegisteredPageSerializer(many=True, required=False)
    pages = RegisteredPageSerializer(many=True, required=False)
    pageCount = serializers.IntegerField(required=False, min_value=0)

    def page_layout(self) -> list[dict[str, int]]:
        data = self.validated_data
        pages = data.get("pageDimensionsList") or data.get("pages") or []
        return [
            {
                "width": int(p["width"]),
                "height": int(p["height"]),
                "rotation": p["rotation"],
                "dpi": p["dpi"],
            }
            for p in pages
        ]
