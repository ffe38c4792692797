"""A conversion request as a typed value (built by the serializer)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConversionSpec:
    """`format` is the target's short name (pdf, docx, txt, png...), lower case."""

    document_id: str
    format: str
