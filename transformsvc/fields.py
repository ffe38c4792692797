"""Serializer fields shared by the apps."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(OpenApiTypes.BOOL)
class StrictBooleanField(serializers.Field):
    """`true/false/1/0` in any case (decisions §5); anything else is invalid."""

    default_error_messages = {"invalid": "must be true, false, 1 or 0"}

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        text = str(data).strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        self.fail("invalid")

    def to_representation(self, value: bool) -> bool:
        return bool(value)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string"},
            {
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
            },
        ]
    }
)
class IdField(serializers.Field):
    """A document id given as a string or as {"id": "..."} (decisions §1)."""

    # Braces doubled: DRF formats error messages with str.format.
    default_error_messages = {
        "invalid": 'must be a string or an object {{"id": string}}'
    }

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, dict):
            data = data.get("id")
        if not isinstance(data, str) or not data:
            self.fail("invalid")
        return data

    def to_representation(self, value: str) -> dict[str, str]:
        return {"id": value}


@extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
class MillisecondDateTimeField(serializers.ReadOnlyField):
    """A datetime as ISO 8601 with milliseconds and offset (decisions §6), or null."""

    def to_representation(self, value: Any) -> str | None:
        return iso_ms(value)


def id_object(value: str | None) -> dict[str, str] | None:
    return None if value is None else {"id": value}


def iso_ms(value: Any) -> str | None:
    """ISO 8601 with milliseconds and offset, e.g. 2026-11-21T14:28:51.188+00:00."""
    if value is None:
        return None
    return value.isoformat(timespec="milliseconds")
