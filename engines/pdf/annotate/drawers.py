"""The drawn kinds: Square, FreeText, Text (sticky note) and Line annotations.

Positions are in displayed-page space (points, top-left origin, decisions §4),
converted only through `geometry`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import pymupdf

from engines.errors import EngineError
from engines.pdf import geometry, pymupdf_patches
from engines.pdf.annotate import fields
from engines.pdf.annotate.pdfobj import (
    appearance,
    mupdf,
    pdf_rect,
    put_colour,
    put_numbers,
    put_text,
    raise_rect_diff,
    rounded,
)
from engines.pdf.annotate.styles import parse_default_appearance, plain_text
from engines.pdf.types import Annotation, Point, Rgb

Mode = Literal["burn", "live"]
Drawer = Callable[[pymupdf.Page, Annotation, Mode], None]

_BLACK = Rgb(0, 0, 0)

# Every drawer calls Annot.update(): skip PyMuPDF's leftover timing loop in it.
pymupdf_patches.apply()


def square(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A rectangle whose outer edge is `position`; the border lies inside it."""
    box = fields.position(a)
    rect = geometry.display_to_page_rect(page, box)
    # A border wider than a third of the box would leave no inside to draw.
    width = min(fields.border(a), rect.width / 3, rect.height / 3) if a.color else 0.0
    inner = rect + (width / 2, width / 2, -width / 2, -width / 2)
    annot = page.add_rect_annot(inner)
    annot.set_border(width=width)
    # MuPDF pads a rectangle it is given by /RD, and draws the stroke's centre
    # line on /Rect inset by /RD, which drawing first raises to half the border.
    # Raised here already, /RD makes the padding match, so the one appearance
    # drawn puts the centre line on `inner`.
    obj = mupdf.pdf_annot_obj(annot.this)
    raise_rect_diff(obj, width / 2)
    annot.set_rect(inner)
    put_colour(obj, "C", a.color)
    put_colour(obj, "IC", a.interior_color)
    fields.describe(annot, a)
    annot.update()
    # MuPDF pads /Rect by at least 1 pt whatever the border; pin it to the box.
    # Its appearance is drawn in page units with /BBox equal to /Rect, so the
    # stream keeps its place when both move together.
    edges = pdf_rect(page, box)
    put_numbers(obj, "Rect", edges)
    put_numbers(obj, "RD", rounded([width / 2] * 4))
    put_numbers(appearance(obj), "BBox", edges)
    fields.identify(obj, a)


def freetext(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A text box at `position`, upright on the displayed page.

    Rich text (XHTML) is kept as /RC and laid out by MuPDF's HTML engine into the
    appearance, with the default appearance's size and colour as /DS; /Contents
    gets its plain text. Burning bakes that same appearance.
    """
    box = fields.position(a)
    rect = geometry.display_to_page_rect(page, box)
    size, da_colour, font = parse_default_appearance(a.default_appearance)
    colour = a.color or da_colour or _BLACK
    text = plain_text(a.rich_text) if a.rich_text else (a.contents or "")
    annot = page.add_freetext_annot(
        rect,
        text,
        fontsize=size,
        fontname=font,
        text_color=colour.unit(),
        rotate=page.rotation,
        opacity=fields.opacity(a),
    )
    annot.set_border(width=fields.border(a, default=0.0))
    fields.describe(annot, a)
    obj = mupdf.pdf_annot_obj(annot.this)
    if a.rich_text:
        put_text(obj, "RC", a.rich_text)
        style = (
            f"font-size:{size:g}pt;color:#{colour.r:02x}{colour.g:02x}{colour.b:02x}"
        )
        put_text(obj, "DS", style)
    annot.update()
    # MuPDF invents a callout line for every FreeText; no client asked for one.
    mupdf.pdf_dict_put(obj, mupdf.pdf_new_name("CL"), mupdf.PDF_NULL)
    fields.identify(obj, a)


def note(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A sticky note (Text annotation) whose icon's top-left corner is at `position`.

    Live, it keeps the viewer conventions for notes (NoZoom, NoRotate: the icon
    stays upright, anchored at the top-left corner of /Rect). Burnt, its
    appearance is turned with the page and stretched to the box, so the baked icon
    fills `position` upright.
    """
    box = fields.position(a)
    anchor = geometry.display_to_page_point(page, Point(box.x, box.y))
    annot = page.add_text_annot(anchor, a.contents or "", icon=fields.icon(a.icon))
    obj = mupdf.pdf_annot_obj(annot.this)
    if a.color:
        put_colour(obj, "C", a.color)
    fields.describe_and_draw(annot, a)
    if mode == "burn":
        put_numbers(obj, "Rect", pdf_rect(page, box))
        mupdf.pdf_dict_put_int(obj, mupdf.pdf_new_name("F"), mupdf.PDF_ANNOT_IS_PRINT)
        turn = page.rotation_matrix
        put_numbers(
            appearance(obj), "Matrix", rounded([turn.a, turn.b, turn.c, turn.d, 0, 0])
        )
    else:
        unrotated = pymupdf.Rect(anchor.x, anchor.y, anchor.x + box.w, anchor.y + box.h)
        shown = geometry.rect_to_box(geometry.page_rect_to_display(page, unrotated))
        put_numbers(obj, "Rect", pdf_rect(page, shown))
    fields.identify(obj, a)


def line(page: pymupdf.Page, a: Annotation, mode: Mode) -> None:
    """A line from `start` to `end`; `tail` ends it at `start`, `head` at `end`."""
    if a.start is None or a.end is None:
        raise EngineError(
            f"Line annotation {a.annotation_id or ''} needs start and end."
        )
    annot = page.add_line_annot(
        geometry.display_to_page_point(page, a.start),
        geometry.display_to_page_point(page, a.end),
    )
    annot.set_line_ends(fields.ending(a.tail), fields.ending(a.head))
    colour = a.color or _BLACK
    obj = mupdf.pdf_annot_obj(annot.this)
    put_colour(obj, "C", colour)
    # /IC fills closed endings (arrows, squares...), in the line's colour unless told.
    put_colour(obj, "IC", a.interior_color or colour)
    annot.set_border(width=fields.border(a))
    fields.describe_and_draw(annot, a)
    fields.identify(obj, a)


DRAWERS: dict[str, Drawer] = {
    "SquareElemType": square,
    "FreetextElemType": freetext,
    "TextElemType": note,
    "LineElemType": line,
}
