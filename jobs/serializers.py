"""Wire fields every kind of order shares (names exactly as in the interface)."""

from __future__ import annotations

from rest_framework import serializers

from jobs.states import State
from transformsvc.fields import MillisecondDateTimeField, StrictBooleanField


class OrderIdSerializer(serializers.Serializer[object]):
    id = serializers.CharField()


class OrderProgressSerializer(serializers.Serializer[object]):
    """What every kind of order reports: state, error, dates and times in ms."""

    currentState = serializers.CharField(source="state")
    errorMessage = serializers.CharField(source="error_message", allow_null=True)
    queuedDate = MillisecondDateTimeField(source="queued_at")
    processedDate = MillisecondDateTimeField(source="processed_at")
    queuedTime = serializers.IntegerField(source="queued_ms", allow_null=True)
    processingTime = serializers.IntegerField(source="processing_ms", allow_null=True)
    # An addition to the contract: where the order is POSTed when it ends.
    callbackUrl = serializers.CharField(source="callback_url", allow_null=True)


class DeleteQuerySerializer(serializers.Serializer[object]):
    deleteResults = StrictBooleanField(
        required=False,
        default=False,
        help_text="Also delete the documents the order made (its result, a "
        "multi-output result's parts). Default false: results stay, as the "
        "original keeps them.",
    )


class LongPollQuerySerializer(serializers.Serializer[object]):
    timeoutMs = serializers.IntegerField(min_value=0, required=False, default=0)


class OrderListQuerySerializer(serializers.Serializer[object]):
    state = serializers.ChoiceField(choices=State.values, required=False)
    # Bounded so that the row offset stays far inside PostgreSQL's bigint.
    page = serializers.IntegerField(
        min_value=1, max_value=1_000_000, required=False, default=1
    )
    pageSize = serializers.IntegerField(
        min_value=1, max_value=500, required=False, default=50
    )
