"""Wire shapes of transformation orders (names exactly as in the interface)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from jobs.serializers import OrderIdSerializer, OrderProgressSerializer
from orders.annotations import AnnotationSerializer, echo
from orders.models import TransformationOrder
from orders.specs import OrderSpec, spec_of
from transformsvc.fields import IdField, id_object
from webhooks.fields import CallbackUrlField


class PageSelectionSerializer(serializers.Serializer[Any]):
    minPage = serializers.IntegerField(min_value=1)
    maxPage = serializers.IntegerField(min_value=1)

    def validate(self, attrs: dict[str, int]) -> dict[str, int]:
        if attrs["minPage"] > attrs["maxPage"]:
            raise serializers.ValidationError(
                {"maxPage": [f"must be at least minPage ({attrs['minPage']})"]}
            )
        return attrs


class ElementSerializer(serializers.Serializer[Any]):
    documentId = IdField()
    pagesSelectionList = PageSelectionSerializer(
        many=True, required=False, allow_null=True
    )
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class DetailSerializer(serializers.Serializer[Any]):
    transformationElements = ElementSerializer(many=True, allow_empty=False)
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class AnnotationsSerializer(serializers.Serializer[Any]):
    annotations = AnnotationSerializer(many=True, required=False, allow_null=True)


class TransformationRequestSerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=TransformationOrder.Format.values)
    # An addition: where the order is POSTed when it ends (webhooks).
    callbackUrl = CallbackUrlField()
    transformationDetails = DetailSerializer(many=True, allow_empty=False)
    annotations = AnnotationsSerializer(required=False, allow_null=True)

    def spec(self) -> OrderSpec:
        """The request as typed values, for the services."""
        normalised = self.normalised()
        return spec_of(normalised["format"], normalised)

    def normalised(self) -> dict[str, Any]:
        """The request as the order stores and echoes it."""
        if self._normalised is None:
            self._normalised = self._normalise()
        return self._normalised

    _normalised: dict[str, Any] | None = None

    def _normalise(self) -> dict[str, Any]:
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


class TransformationOrderIdSerializer(serializers.Serializer[Any]):
    transformationOrderId = OrderIdSerializer()


class TransformationOrderSerializer(OrderProgressSerializer):
    transformationOrderId = serializers.SerializerMethodField()
    transformationDetails = serializers.SerializerMethodField()
    transformationResultDocumentID = serializers.SerializerMethodField()
    transformationResultDocumentIDs = serializers.SerializerMethodField()
    annotations = serializers.SerializerMethodField()
    format = serializers.CharField()
    # An addition: true once a redacting order's outputs were verified free of every
    # removed word (an order with a survivor ends FAILED instead); null otherwise.
    redactionVerified = serializers.BooleanField(
        source="redaction_verified", allow_null=True, read_only=True
    )

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
