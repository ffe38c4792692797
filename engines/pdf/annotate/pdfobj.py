"""Edits of MuPDF annotation dictionaries in place, through MuPDF's C API.

`obj` is a PDF dictionary (or a reference to one) of MuPDF. PyMuPDF's bindings
are used because Document.xref_set_key prints and re-parses the whole object.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from engines.errors import EngineError
from engines.pdf import geometry
from engines.pdf.types import Box, Rgb

mupdf = pymupdf.mupdf


def pdf_rect(page: pymupdf.Page, box: Box) -> list[float]:
    """A displayed-space box as an /Rect array (PDF user space), rounded."""
    rect = geometry.display_to_pdf_rect(page, box)
    return rounded([rect.x0, rect.y0, rect.x1, rect.y1])


def rounded(numbers: Sequence[float]) -> list[float]:
    """To 4 decimals: 1/10,000 pt is below any viewer's reach."""
    return [round(number, 4) for number in numbers]


def put_numbers(obj: Any, key: str, numbers: Sequence[float]) -> None:
    """An array of reals (MuPDF keeps them as 32-bit floats, as when parsed)."""
    array = mupdf.pdf_dict_put_array(obj, mupdf.pdf_new_name(key), len(numbers))
    for number in numbers:
        mupdf.pdf_array_push_real(array, number)


def put_colour(obj: Any, key: str, colour: Rgb | None) -> None:
    """/C or /IC as `Annot.set_colors` writes it ([] for none)."""
    put_numbers(obj, key, colour.unit() if colour else [])


def put_text(obj: Any, key: str, text: str) -> None:
    """A text string, encoded as MuPDF encodes /Contents and /T (ASCII or UTF-16)."""
    mupdf.pdf_dict_put_text_string(obj, mupdf.pdf_new_name(key), text)


def raise_rect_diff(obj: Any, least: float) -> None:
    """Raise each of the annotation's /RD margins to at least `least` points."""
    current = mupdf.pdf_dict_get(obj, mupdf.pdf_new_name("RD"))
    margins = [mupdf.pdf_array_get_real(current, i) for i in range(4)]  # 0: none
    if min(margins) < least:
        put_numbers(obj, "RD", [max(margin, least) for margin in margins])


def appearance(obj: Any) -> Any:
    """The annotation's normal appearance stream."""
    stream = mupdf.pdf_dict_getp(obj, "AP/N")
    if not mupdf.pdf_is_stream(stream):
        raise EngineError("The annotation's appearance could not be created.")
    return stream
