"""Request bodies with a field the service does not know are refused, naming the
field and the known one nearest to it: a typo ("annotation" for "annotations",
"pageSelectionList" for "pagesSelectionList") must not be ignored, or an order
would run without what the client meant it to do (a redaction, a selection)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, ClassVar

from rest_framework import serializers


def unknown_fields(
    data: Mapping[str, Any], known: set[str], tolerated: frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """{field: [message]} for each key of `data` that is neither known nor
    tolerated; empty when there is none."""
    errors = {}
    for key in data:
        if key in known or key in tolerated:
            continue
        nearest = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
        choices = "" if nearest else f"; known fields: {', '.join(sorted(known))}"
        errors[str(key)] = [f"unknown field{hint}{choices}"]
    return errors


class RejectsUnknownFields(serializers.Serializer[Any]):
    """A serializer that refuses fields it does not declare, except `tolerated`
    ones (fields the original's clients send that this service ignores)."""

    tolerated: ClassVar[frozenset[str]] = frozenset()

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            errors = unknown_fields(data, set(self.fields), self.tolerated)
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
