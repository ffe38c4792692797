"""Wire shapes of bookmarks, named destinations and signatures (the original's
Bookmarks, NamedDestinations and Signatures objects, with a few additions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from documents.serializers import DocumentIdObjectSerializer
from engines.pdf.navigation import Bookmark, NamedDestination, Target
from transformsvc.fields import iso_ms

if TYPE_CHECKING:
    from engines.pdf.signatures import Signature


class PointSerializer(serializers.Serializer):
    x = serializers.FloatField()
    y = serializers.FloatField()


@extend_schema_field(
    {"type": "array", "items": {"$ref": "#/components/schemas/Bookmark"}}
)
class BookmarkChildrenField(serializers.ListField):
    """The children of a bookmark: bookmarks, recursively."""


class BookmarkSerializer(serializers.Serializer):
    title = serializers.CharField()
    page = serializers.IntegerField(help_text="0-based; -1: leads to no page here")
    textPosition = serializers.FloatField(
        help_text="y of the target on the displayed page, points from the top"
    )
    nodeOpen = serializers.BooleanField()
    children = BookmarkChildrenField(child=serializers.DictField())
    namedDestination = serializers.CharField(allow_null=True)
    fileName = serializers.CharField(allow_null=True)
    shouldOpenInNewWindow = serializers.BooleanField()
    position = PointSerializer(help_text="the target point, displayed-page space")


class BookmarksSerializer(serializers.Serializer):
    bookmarks = BookmarkSerializer(many=True)


class NamedDestinationSerializer(serializers.Serializer):
    name = serializers.CharField()
    page = serializers.IntegerField(help_text="0-based; -1: leads to no page")
    position = PointSerializer(help_text="the target point, displayed-page space")


class NamedDestinationsSerializer(serializers.Serializer):
    documentId = DocumentIdObjectSerializer()
    namedDestinations = NamedDestinationSerializer(many=True)


class SignatureSerializer(serializers.Serializer):
    name = serializers.CharField()
    signer = serializers.CharField(allow_null=True)
    date = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)
    location = serializers.CharField(allow_null=True)
    wrongIntegrity = serializers.BooleanField()
    unknownCertificate = serializers.BooleanField()
    signatureException = serializers.BooleanField()
    signatureValid = serializers.BooleanField()
    documentIntact = serializers.BooleanField()
    coversWholeDocument = serializers.BooleanField()
    error = serializers.CharField(allow_null=True)


class SignaturesSerializer(serializers.Serializer):
    signatures = SignatureSerializer(many=True)
    wronglySigned = serializers.BooleanField()
    integrity = serializers.BooleanField()


def _point(target: Target) -> dict[str, float]:
    return {"x": target.x, "y": target.y}


def bookmark(item: Bookmark) -> dict[str, Any]:
    return {
        "title": item.title,
        "page": item.target.page,
        "textPosition": item.target.y,
        "nodeOpen": item.open,
        "children": [bookmark(child) for child in item.children],
        "namedDestination": item.named_destination,
        "fileName": item.file_name,
        "shouldOpenInNewWindow": item.new_window,
        "position": _point(item.target),
    }


def bookmarks(items: list[Bookmark]) -> dict[str, Any]:
    return {"bookmarks": [bookmark(item) for item in items]}


def named_destinations(
    document_id: str, items: list[NamedDestination]
) -> dict[str, Any]:
    return {
        "documentId": {"id": document_id},
        "namedDestinations": [
            {"name": d.name, "page": d.target.page, "position": _point(d.target)}
            for d in items
        ],
    }


def signatures(items: list[Signature]) -> dict[str, Any]:
    return {
        "signatures": [
            {
                "name": s.field_name,
                "signer": s.signer,
                "date": iso_ms(s.signed_at),
                "reason": s.reason,
                "location": s.location,
                "wrongIntegrity": not s.integrity_ok,
                "unknownCertificate": not s.trusted,
                "signatureException": s.error is not None,
                "signatureValid": s.valid,
                "documentIntact": s.intact and not s.modified_after,
                "coversWholeDocument": s.covers_whole_file,
                "error": s.error,
            }
            for s in items
        ],
        "wronglySigned": any(not s.valid or s.error for s in items),
        "integrity": all(s.integrity_ok for s in items),
    }
