"""Wire shapes of conversion orders (the original's names)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from conversions.models import ConversionOrder
from conversions.specs import ConversionSpec
from conversions.targets import ALL_TARGETS, canonical
from documents.formats import mime_of
from jobs.callbacks import CallbackUrlField
from jobs.serializers import OrderIdSerializer, OrderProgressSerializer
from jobs.states import State
from transformsvc.fields import IdField, id_object
from transformsvc.strict import RejectsUnknownFields


@extend_schema_field(
    {
        "type": "string",
        "enum": list(ALL_TARGETS),
        "description": "The format wanted. What a document converts to depends "
        "on its own format: `pdf`, `txt`, `png`, `jpg` from any document with "
        "pages; Office formats from an Office document of the same kind (word "
        "processing, spreadsheet, presentation). `jpeg`, `tif`, `htm`, `text` "
        "and any case or leading dot are read as their short names.",
    }
)
class TargetFormatField(serializers.CharField):
    pass


class ConversionRequestSerializer(RejectsUnknownFields):
    documentId = IdField()
    # An addition: where the order is POSTed when it ends (webhooks).
    callbackUrl = CallbackUrlField()
    format = TargetFormatField(max_length=20)

    def validate_format(self, value: str) -> str:
        name = canonical(value)
        if mime_of(name) is None:
            raise serializers.ValidationError(
                f"unknown format {value!r}; one of: {', '.join(ALL_TARGETS)} "
                "(what a document converts to depends on its own format)"
            )
        return name

    def spec(self) -> ConversionSpec:
        data = self.validated_data
        return ConversionSpec(document_id=data["documentId"], format=data["format"])


class ConversionOrderIdSerializer(serializers.Serializer[Any]):
    conversionOrderId = OrderIdSerializer()


class ConversionStateField(serializers.CharField):
    def to_representation(self, value: object) -> str:
        return State.PROCESSING if value == State.QUEUED else str(value)


class ConversionOrderSerializer(OrderProgressSerializer):
    """The original never shows a conversion QUEUED (its clients treat any state
    but PROCESSING, PROCESSED and FAILED as a failure): a queued conversion
    reads PROCESSING, and `queued` (an addition) says it is still waiting. The
    admin, the metrics and `GET /conversions?state=QUEUED` see the real state."""

    currentState = ConversionStateField(
        source="state", help_text="PROCESSING (also while queued), PROCESSED or FAILED"
    )
    queued = serializers.SerializerMethodField(
        help_text="An addition: true while the order waits for a worker"
    )
    conversionOrderId = serializers.SerializerMethodField()
    documentId = serializers.SerializerMethodField()
    format = serializers.CharField()
    conversionResultDocumentID = serializers.SerializerMethodField()

    def get_queued(self, order: ConversionOrder) -> bool:
        return bool(order.state == State.QUEUED)

    def get_conversionOrderId(self, order: ConversionOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.id}

    def get_documentId(self, order: ConversionOrder) -> dict[str, str]:  # noqa: N802
        return {"id": order.document_id}

    def get_conversionResultDocumentID(  # noqa: N802
        self, order: ConversionOrder
    ) -> dict[str, str] | None:
        return id_object(order.result_document_id)
