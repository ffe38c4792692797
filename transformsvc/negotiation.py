"""Content negotiation that never refuses on the Accept header alone.

The original's clients send `Accept: application/octet-stream`, `application/pdf`
or `application/json` to endpoints that answer files or JSON: an answer in the
endpoint's own type serves them better than a 406 (which this service keeps for
`?format=` values it cannot produce, decisions §3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class LenientContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> Any:
        renderers = list(renderers)
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except exceptions.NotAcceptable:
            return renderers[0], renderers[0].media_type
