"""Wire shapes of transformation orders (names exactly as in the interface)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from orders.annotations import AnnotationSerializer, echo
from orders.models import TransformationOrder
from transformsvc.fields import IdField, MillisecondDateTimeField, id_object


class PageSelectionSerializer(serializers.Serializer):
    minPage = serializers.IntegerField(min_value=1)
    maxPage = serializers.IntegerField(min_value=1)

    def validate(self, attrs: dict[str, int]) -> dict[str, int]:
        if attrs["minPage"] > attrs["maxPage"]:
            raise serializers.ValidationError(
                {"maxPage": [f"must be at least minPage ({attrs['minPage']})"]}
            )
        return attrs


class ElementSerializer(serializers.Serializer):
    documentId = IdField()
    pagesSelectionList = PageSelectionSerializer(
        many=True, required=False, allow_null=True
    )
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class DetailSerializer(serializers.Serializer):
    transformationElements = ElementSerializer(many=True, allow_empty=False)
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class AnnotationsSerializer(serializers.Serializer):
    annotations = AnnotationSerializer(many=True, required=False, allow_null=True)


class TransformationRequestSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=TransformationOrder.Format.values)
    transformationDetails = DetailSerializer(many=True, allow_empty=False)
    annotations = AnnotationsSerializer(required=False, allow_null=True)

    def normalised(self) -> dict[str, Any]:
        """The request as the order stores and echoes it."""
        data, raw = self.validated_data, self.initial_data
        details = [
            {
                "transformationElements": [
                    {
                        "documentId": {"id": el["documentId"]},
                        "pagesSelectionList": el.get("pagesSelectionList"),
                        "documentTitle": el.get("documentTitle"),
                    }
                    for el in detail["transformationElements"]
                ],
                "documentTitle": detail.get("documentTitle"),
            }
            for detail in data["transformationDetails"]
        ]
        annotations = None
        if data.get("annotations") is not None:
            raw_items = (raw.get("annotations") or {}).get("annotations") or []
            valid_items = data["annotations"].get("annotations") or []
            annotations = {
                "annotations": [
                    echo(r, v) for r, v in zip(raw_items, valid_items, strict=True)
                ]
            }
        return {
            "format": data["format"],
            "transformationDetails": details,
            "annotations": annotations,
        }


class OrderIdSerializer(serializers.Serializer):
    id = serializers.CharField()


class TransformationOrderIdSerializer(serializers.Serializer):
    transformationOrderId = OrderIdSerializer()


class OrderProgressSerializer(serializers.Serializer):
    """What every kind of order reports: state, error, dates and times in ms."""

    currentState = serializers.CharField(source="state")
    errorMessage = serializers.CharField(source="error_message", allow_null=True)
    queuedDate = MillisecondDateTimeField(source="queued_at")
    processedDate = MillisecondDateTimeField(source="processed_at")
    queuedTime = serializers.IntegerField(source="queued_ms", allow_null=True)
    processingTime = serializers.IntegerField(source="processing_ms", allow_null=True)


class TransformationOrderSerializer(OrderProgressSerializer):
    transformationOrderId = serializers.SerializerMethodField()
    transformationDetails = serializers.SerializerMethodField()
    transformationResultDocumentID = serializers.SerializerMethodField()
    transformationResultDocumentIDs = serializers.SerializerMethodField()
    annotations = serializers.SerializerMethodField()
    format = serializers.CharField()

    def get_transformationOrderId(self, order: TransformationOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.id}

    def get_transformationDetails(
        self, order: TransformationOrder
    ) -> list[dict[str, Any]]:  # noqa: N802
        return order.request["transformationDetails"]

    def get_transformationResultDocumentID(
        self, order: TransformationOrder
    ) -> dict[str, str] | None:  # noqa: N802,E501
        return id_object(order.result_document_id)

    def get_transformationResultDocumentIDs(
        self, order: TransformationOrder
    ) -> list[dict[str, str]] | None:  # noqa: N802,E501
        if order.result_document_id is None or not order.output_ids:
            return None
        return [{"id": i} for i in order.output_ids]

    def get_annotations(self, order: TransformationOrder) -> dict[str, Any] | None:
        return order.request.get("annotations")


class TransformationOrderPageSerializer(serializers.Serializer):
    """GET /transformations: one page of orders, newest first."""

    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()
    results = TransformationOrderSerializer(many=True)


class OrderListQuerySerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["QUEUED", "PROCESSING", "PROCESSED", "FAILED"], required=False
    )
    # Bounded so that the row offset stays far inside PostgreSQL's bigint.
    page = serializers.IntegerField(
        min_value=1, max_value=1_000_000, required=False, default=1
    )
    pageSize = serializers.IntegerField(
        min_value=1, max_value=500, required=False, default=50
    )


class LongPollQuerySerializer(serializers.Serializer):
    timeoutMs = serializers.IntegerField(min_value=0, required=False, default=0)
