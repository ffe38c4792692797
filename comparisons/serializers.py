"""Wire shapes of comparisons (names exactly as in the interface)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from comparisons.models import ComparisonOrder
from comparisons.specs import ComparisonSpec
from documents.page_serializers import PositionTextSerializer, position_text
from engines.pdf.compare import parse_color
from engines.pdf.types import PositionText, TextChange
from jobs.callbacks import CallbackUrlField
from jobs.serializers import OrderProgressSerializer
from transformsvc.conf import service
from transformsvc.fields import IdField
from transformsvc.strict import RejectsUnknownFields


class DifferenceQuerySerializer(serializers.Serializer[Any]):
    leftDocumentId = serializers.CharField()
    rightDocumentId = serializers.CharField()


class ColorField(serializers.CharField):
    """`ff0000`, `FF0000` or `#ff0000`; kept as sent (decisions §1). The string
    `"null"` (which clients of the original send) means no colour, like ""."""

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if value.strip().lower() == "null":
            return ""
        if value:
            try:
                parse_color(value)
            except ValueError as exc:
                raise serializers.ValidationError(str(exc)) from exc
        return value


class ComparisonRequestSerializer(RejectsUnknownFields):
    leftDocumentId = IdField()
    # An addition: where the order is POSTed when it ends (webhooks).
    callbackUrl = CallbackUrlField()
    rightDocumentId = IdField()
    fuzz = serializers.FloatField(
        required=False, default=3.0, min_value=0, max_value=100
    )
    highlightColor = ColorField(required=False, default="FF0000", allow_blank=False)
    lowlightColor = ColorField(
        required=False, default="", allow_blank=True, allow_null=True
    )

    def spec(self) -> ComparisonSpec:
        data = self.validated_data
        return ComparisonSpec(
            left_document_id=data["leftDocumentId"],
            right_document_id=data["rightDocumentId"],
            fuzz=data["fuzz"],
            highlight_color=data["highlightColor"] or "FF0000",
            lowlight_color=data.get("lowlightColor") or "",
        )


class ComparisonOrderIdSerializer(serializers.Serializer[Any]):
    comparisonOrderId = serializers.DictField(child=serializers.CharField())


DOCUMENT_ID_SCHEMA = {
    "oneOf": [
        {"type": "string"},
        {"type": "object", "properties": {"id": {"type": "string"}}},
    ],
    "nullable": True,
    "description": "A string (interface.md), or {id} with "
    "TRANSFORMSVC_COMPARISON_ID_OBJECTS=true (the original's broker API)",
}


@extend_schema_field(DOCUMENT_ID_SCHEMA)
class ComparisonDocumentIdField(serializers.Field):
    """A document id of a comparison order: a string, as the contract shows it
    (interface.md, decisions §11), or the original's `{"id": ...}` object when
    `TRANSFORMSVC_COMPARISON_ID_OBJECTS` is on (its clients read
    `targetDocumentId.id`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: str | None) -> str | dict[str, str] | None:
        if value is None or not service().comparison_id_objects:
            return value
        return {"id": value}


class ComparisonOrderSerializer(OrderProgressSerializer):
    comparisonOrderId = serializers.SerializerMethodField()
    fuzz = serializers.FloatField()
    highlightColor = serializers.CharField(source="highlight_color")
    lowlightColor = serializers.CharField(source="lowlight_color")
    leftDocumentId = ComparisonDocumentIdField(source="left_document_id")
    rightDocumentId = ComparisonDocumentIdField(source="right_document_id")
    targetDocumentId = ComparisonDocumentIdField(source="target_document_id")

    def get_comparisonOrderId(self, order: ComparisonOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.id}


class FragmentSerializer(serializers.Serializer[Any]):
    endOfLine = serializers.BooleanField()
    pageNumber = serializers.IntegerField()
    text = serializers.CharField()
    type = serializers.CharField()


class TextChangeSerializer(serializers.Serializer[Any]):
    changeType = serializers.CharField()
    fragments = FragmentSerializer(many=True)
    left = PositionTextSerializer(allow_null=True)
    right = PositionTextSerializer(allow_null=True)


class DocumentCompareResultSerializer(serializers.Serializer[Any]):
    leftDocumentId = serializers.CharField()
    rightDocumentId = serializers.CharField()
    textChanges = TextChangeSerializer(many=True)


def _side(item: PositionText | None) -> dict[str, Any] | None:
    return None if item is None else position_text(item)


def compare_result(
    left_id: str, right_id: str, changes: list[TextChange]
) -> dict[str, Any]:
    return {
        "leftDocumentId": left_id,
        "rightDocumentId": right_id,
        "textChanges": [
            {
                "changeType": change.change_type,
                "fragments": [
                    {
                        "endOfLine": f.end_of_line,
                        "pageNumber": f.page,
                        "text": f.text,
                        "type": f.type,
                    }
                    for f in change.fragments
                ],
                "left": _side(change.left),
                "right": _side(change.right),
            }
            for change in changes
        ],
    }
