"""Which annotation kinds the engine applies, and the function drawing each."""

from __future__ import annotations

from engines.errors import EngineError
from engines.pdf.annotate.drawers import DRAWERS, Drawer
from engines.pdf.annotate.names import REDACTIONS, kind_name
from engines.pdf.types import Annotation

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
