"""JSON bodies without NUL characters (PostgreSQL text and jsonb cannot hold
them) and nested at most MAX_DEPTH deep (no request of the API nests deeper; a
deeper body would exhaust the parser's recursion)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 64


def _depth(value: Any, limit: int) -> int:
    """How deep `value` nests, counting no further than `limit` + 1."""
    if limit < 0 or not isinstance(value, (dict, list)):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class StrictJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                f"JSON nested deeper than {MAX_DEPTH} levels is not accepted"
            ) from None
        if _depth(data, MAX_DEPTH) > MAX_DEPTH:
            raise ParseError(
                f"JSON nested deeper than {MAX_DEPTH} levels is not accepted"
            )
        if _has_nul(data):
            raise ParseError("JSON strings may not contain NUL (\\u0000) characters")
        return data
