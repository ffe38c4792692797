"""Which annotation kinds the engine applies, and the function drawing each."""

from __future__ import annotations

from documents.pdf.annotate.drawers import DRAWERS, Drawer
from documents.pdf.annotate.names import REDACTIONS, kind_name
from documents.pdf.types import Annotation, EngineError

# Every simple type name `apply_annotations` accepts (for request validation).
KINDS = frozenset(DRAWERS) | REDACTIONS


def drawer(annotation: Annotation) -> Drawer:
    """The function drawing this kind; EngineError for a kind nobody draws."""
    try:
        return DRAWERS[kind_name(annotation)]
    except KeyError:
        raise EngineError(
            f"Annotation type {annotation.kind!r} is not supported."
        ) from None
