"""Wire shapes of conversion orders (the original's names)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from conversions.models import ConversionOrder
from conversions.specs import ConversionSpec
from documents.formats import mime_of
from jobs.serializers import OrderIdSerializer, OrderProgressSerializer
from transformsvc.fields import IdField, id_object
from webhooks.fields import CallbackUrlField


class ConversionRequestSerializer(serializers.Serializer[Any]):
    documentId = IdField()
    # An addition: where the order is POSTed when it ends (webhooks).
    callbackUrl = CallbackUrlField()
    format = serializers.CharField(max_length=20)

    def validate_format(self, value: str) -> str:
        name = value.strip().lower().lstrip(".")
        if mime_of(name) is None:
            raise serializers.ValidationError(
                f"unknown format {value!r}; give a short format name such as pdf, "
                "docx, odt, txt, html or png"
            )
        return name

    def spec(self) -> ConversionSpec:
        data = self.validated_data
        return ConversionSpec(document_id=data["documentId"], format=data["format"])


class ConversionOrderIdSerializer(serializers.Serializer[Any]):
    conversionOrderId = OrderIdSerializer()


class ConversionOrderSerializer(OrderProgressSerializer):
    conversionOrderId = serializers.SerializerMethodField()
    documentId = serializers.SerializerMethodField()
    format = serializers.CharField()
    conversionResultDocumentID = serializers.SerializerMethodField()

    def get_conversionOrderId(self, order: ConversionOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.id}

    def get_documentId(self, order: ConversionOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.document_id}

    def get_conversionResultDocumentID(  # noqa: N802
        self, order: ConversionOrder
    ) -> dict[str, str] | None:
        return id_object(order.result_document_id)
