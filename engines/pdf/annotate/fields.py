"""The fields of a requested annotation, checked, and written to its PDF object."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pymupdf

from engines.errors import EngineError
from engines.pdf.annotate.names import kind_name
from engines.pdf.annotate.pdfobj import mupdf, put_text
from engines.pdf.annotate.styles import plain_text
from engines.pdf.types import Annotation, Box

# Wire values of a line's `head`/`tail` → PDF /LE names (via MuPDF's codes).
LINE_ENDINGS: dict[str, int] = {
    "NONE": mupdf.PDF_ANNOT_LE_NONE,
    "SQUARE": mupdf.PDF_ANNOT_LE_SQUARE,
    "CIRCLE": mupdf.PDF_ANNOT_LE_CIRCLE,
    "DIAMOND": mupdf.PDF_ANNOT_LE_DIAMOND,
    "OPEN_ARROW": mupdf.PDF_ANNOT_LE_OPEN_ARROW,
    "CLOSED_ARROW": mupdf.PDF_ANNOT_LE_CLOSED_ARROW,
    "BUTT": mupdf.PDF_ANNOT_LE_BUTT,
    "ROPEN_ARROW": mupdf.PDF_ANNOT_LE_R_OPEN_ARROW,
    "RCLOSED_ARROW": mupdf.PDF_ANNOT_LE_R_CLOSED_ARROW,
    "SLASH": mupdf.PDF_ANNOT_LE_SLASH,
}
# The icons every viewer draws for a sticky note (PDF 32000-1, 12.5.6.4).
NOTE_ICONS = ("Note", "Comment", "Key", "Help", "NewParagraph", "Paragraph", "Insert")
_EPOCH_MS_THRESHOLD = 1e11  # larger epoch numbers are milliseconds (year > 5138 in s)


def describe(annot: pymupdf.Annot, a: Annotation) -> None:
    """Opacity, author, contents and date (setting /Contents drops /RC)."""
    annot.set_opacity(opacity(a))
    contents = plain_text(a.rich_text) if a.rich_text else a.contents
    annot.set_info(
        content=contents,
        title=a.creator,
        creationDate=_pdf_date(a.creation_date)
        if a.creation_date is not None
        else None,
    )


def describe_and_draw(annot: pymupdf.Annot, a: Annotation) -> None:
    """`describe`, then a fresh appearance stream."""
    describe(annot, a)
    annot.update()


def identify(obj: Any, a: Annotation) -> None:
    """/NM = the annotation id; `obj` is the annotation's dictionary."""
    if a.annotation_id:
        put_text(obj, "NM", a.annotation_id)


def position(a: Annotation) -> Box:
    if a.position is None:
        raise EngineError(f"{kind_name(a)} {a.annotation_id or ''} needs a position.")
    if a.position.w <= 0 or a.position.h <= 0:
        raise EngineError(
            f"{kind_name(a)} {a.annotation_id or ''} needs a position with a positive "
            f"width and height (got {a.position})."
        )
    return a.position


def opacity(a: Annotation) -> float:
    if a.opacity is None:
        return 1.0
    if not 0.0 <= a.opacity <= 1.0:
        raise EngineError(f"Opacity must be between 0 and 1 (got {a.opacity}).")
    return float(a.opacity)


def border(a: Annotation, default: float = 1.0) -> float:
    if a.width is None:
        return default
    if a.width < 0:
        raise EngineError(f"A border width cannot be negative (got {a.width}).")
    return float(a.width)


def ending(value: str | None) -> int:
    if value is None:
        return int(mupdf.PDF_ANNOT_LE_NONE)
    try:
        return LINE_ENDINGS[value.strip().upper()]
    except KeyError:
        known = ", ".join(LINE_ENDINGS)
        raise EngineError(
            f"Unknown line ending {value!r}; use one of {known}."
        ) from None


def icon(value: str | None) -> str:
    for name in NOTE_ICONS:
        if value and value.strip().lower() == name.lower():
            return name
    return "Note"


def _pdf_date(epoch: float) -> str:
    seconds = epoch / 1000 if abs(epoch) > _EPOCH_MS_THRESHOLD else epoch
    try:
        moment = dt.datetime.fromtimestamp(seconds, tz=dt.UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise EngineError(f"Invalid creation date {epoch}.") from exc
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")
