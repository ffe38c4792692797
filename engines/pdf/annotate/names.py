"""Annotation type names: the simple name is what the engine knows a kind by."""

from __future__ import annotations

from engines.pdf.types import Annotation

# The kinds that redact (true redaction, decisions §6) instead of drawing.
REDACTIONS = frozenset({"RedactElemType", "RedactTextElemType"})


def simple_name(type_name: str) -> str:
    """`com.vendor.viewer.annotation.api.SquareElemType` → `SquareElemType`."""
    return type_name.rsplit(".", 1)[-1]


def kind_name(annotation: Annotation) -> str:
    """The simple type name, whatever package prefix the client sent."""
    return simple_name(annotation.kind)


def is_redaction(annotation: Annotation) -> bool:
    return kind_name(annotation) in REDACTIONS
