"""Wire shapes of comparisons (names exactly as in the interface)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from comparisons.models import ComparisonOrder
from comparisons.specs import ComparisonSpec
from documents.page_serializers import PositionTextSerializer, position_text
from documents.pdf.compare import parse_color
from documents.pdf.types import PositionText, TextChange
from jobs.serializers import OrderProgressSerializer
from transformsvc.fields import IdField
from webhooks.fields import CallbackUrlField


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


class ComparisonRequestSerializer(serializers.Serializer[Any]):
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


class ComparisonOrderSerializer(OrderProgressSerializer):
    comparisonOrderId = serializers.SerializerMethodField()
    fuzz = serializers.FloatField()
    highlightColor = serializers.CharField(source="highlight_color")
    lowlightColor = serializers.CharField(source="lowlight_color")
    leftDocumentId = serializers.CharField(source="left_document_id")
    rightDocumentId = serializers.CharField(source="right_document_id")
    targetDocumentId = serializers.CharField(
        source="target_document_id", allow_null=True
    )

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
