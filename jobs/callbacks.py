"""`callbackUrl` of an order (webhooks): checked like documentUrl when the order
is created, else the default of the API key that creates it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engines import fetch
from transformsvc.conf import service
from transformsvc.problems import InvalidInput


def check_callback_url(url: str) -> None:
    """The checks of documentUrl (decisions §3): http(s), a public address unless
    the host is allowlisted. 400 naming callbackUrl otherwise."""
    allowlist = frozenset(host.lower() for host in service().url_allowlist)
    try:
        fetch.resolve(url, allowlist, "callbackUrl")
    except fetch.FetchRefused as exc:
        raise InvalidInput(str(exc), errors={"callbackUrl": [str(exc)]}) from exc


def callback_url_for(sent: str | None, auth: Any) -> str | None:
    """The order's callback: as sent, else the default of the caller's API key."""
    return sent or getattr(auth, "callback_url", None) or None


class CallbackUrlField(serializers.URLField):
    """`callbackUrl` in the body of an order request (an addition to the
    contract): where the order is POSTed when it ends."""

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
