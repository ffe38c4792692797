"""Wire shapes of /accessor/load and /connector/documents."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class DocumentAccessorSerializer(serializers.Serializer[Any]):
    """The original's DocumentAccessor, as far as a URL opens it."""

    url = serializers.CharField(max_length=2048, help_text="http or https URL")
    documentTitle = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1024
    )


class DocumentIdSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
