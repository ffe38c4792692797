"""`callbackUrl` in the bodies of POST /transformations, /comparisons and
/conversions: checked like documentUrl when the order is created."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from transformsvc.problems import InvalidInput
from webhooks.services import check_callback_url


class CallbackUrlField(serializers.URLField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("max_length", 2048)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        url = super().to_internal_value(data)
        try:
            check_callback_url(url)
        except InvalidInput as exc:
            raise serializers.ValidationError(exc.detail) from exc
        return url
