"""A comparison request as a typed value (built by the serializer)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ComparisonSpec:
    """Colours as sent (`ff0000`, `#FF0000`...; lowlight "" = none); `fuzz` is a
    colour tolerance in percent."""

    left_document_id: str
    right_document_id: str
    fuzz: float = 3.0
    highlight_color: str = "FF0000"
    lowlight_color: str = ""
