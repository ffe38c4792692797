"""A stored annotation as the services see it (wire names end at the serializer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class AnnotationSpec:
    annotation_id: str | None  # None: the store gives it one
    kind: str
    page: int  # from 0
    data: dict[str, Any]  # the JSON as sent


@dataclass(frozen=True, slots=True)
class RedactReason:
    symbolic_name: str
    display_name: str
