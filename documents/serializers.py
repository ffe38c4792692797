"""Wire shapes of the documents API (names exactly as in the interface)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from documents.models import Document
from transformsvc.fields import MillisecondDateTimeField, StrictBooleanField


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


class DocumentIdSerializer(serializers.Serializer):
    id = serializers.CharField()


class DocumentSerializer(serializers.Serializer):
    """GET /documents/<id>: the metadata of a document."""

    id = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    mimeType = serializers.CharField(source="mime_type")
    size = serializers.IntegerField()
    sha256 = serializers.CharField()
    pageCount = serializers.IntegerField(source="page_count", allow_null=True)
    createdDate = MillisecondDateTimeField(source="created_at")


class PageDimensionsSerializer(serializers.Serializer):
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    rotation = serializers.IntegerField()
    dpi = serializers.IntegerField()
    pageLayers = serializers.ListField(child=serializers.DictField(), allow_null=True)


class DocumentIdObjectSerializer(serializers.Serializer):
    id = serializers.CharField()


class DocumentLayoutSerializer(serializers.Serializer):
    type = serializers.CharField()
    documentId = DocumentIdObjectSerializer()
    documentTitle = serializers.CharField(allow_null=True)
    mimeType = serializers.CharField()
    pageDimensionsList = PageDimensionsSerializer(many=True)

    @staticmethod
    def from_document(doc: Document) -> dict[str, Any]:
        prefix = settings.TRANSFORMSVC["TYPE_PREFIX"]
        return {
            "type": f"{prefix}.client.api.document.DocumentPageLayout",
            "documentId": {"id": doc.id},
            "documentTitle": doc.title,
            "mimeType": doc.mime_type,
            "pageDimensionsList": [
                {
                    "width": p["width"],
                    "height": p["height"],
                    "rotation": p["rotation"],
                    "dpi": 72,
                    "pageLayers": None,
                }
                for p in doc.layout
            ],
        }


class FileQuerySerializer(serializers.Serializer):
    format = serializers.CharField(required=False, allow_blank=True)
