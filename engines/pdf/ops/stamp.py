"""Stamp / watermark: a text or an image burnt into the content of pages.

Positions are points on the displayed page (top-left origin); pages are chosen
by 1-based inclusive ranges of the output (`pages`), every page when absent.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.ops import placement, sheets
from engines.pdf.ops.fields import MAX_EXTENT, Fields
from engines.pdf.ops.state import RunState, selected_pages
from engines.pdf.types import PageRange, Rgb

_GREY = Rgb(128, 128, 128)


@dataclass(frozen=True, slots=True)
class StampSpec:
    """`text` (newlines split lines) or `image` (a document id the service
    resolves to a file), drawn at `opacity` (0-1) turned `rotation` degrees
    counter-clockwise, at one of nine anchors `margin` points from the edges
    and moved by `offset` (x right, y down), or `tiled` over the whole page
    `spacing` points apart. `searchable` False draws text as outlines. `width`
    scales an image to that many points (its own size at its resolution when
    absent)."""

    text: str | None = None
    image: str | None = None
    font: str = "helvetica-bold"
    font_size: float = 48.0
    color: Rgb = _GREY
    opacity: float = 0.5
    rotation: float = 0.0
    position: str = "center"
    offset: tuple[float, float] = (0.0, 0.0)
    margin: float = 36.0
    tiled: bool = False
    spacing: float = 72.0
    pages: tuple[PageRange, ...] | None = None
    searchable: bool = True
    width: float | None = None


def parse(f: Fields) -> StampSpec:
    text = f.text("text")
    image = f.raw("image")
    if isinstance(image, dict):  # {"id": ...} as ids are elsewhere
        image = image.get("id")
    if image is not None and not isinstance(image, str):
        raise f.fail("image", "must be a document id")
    if (text is None) == (image is None):
        raise f.fail("text", "give either text or image")
    if text is not None and not text.strip():
        raise f.fail("text", "must not be blank")
    width = f.number("width", 0.0, low=1, high=MAX_EXTENT) or None
    if width and text is not None:
        raise f.fail("width", "applies to an image stamp only")
    return StampSpec(
        text=text,
        image=image,
        font=f.choice("font", tuple(sheets.FONTS), "helvetica-bold"),
        font_size=f.number("fontSize", 48.0, low=1, high=500),
        color=f.color("color", _GREY),
        opacity=f.number("opacity", 0.5, low=0, high=1),
        rotation=f.number("rotation", 0.0, low=-360, high=360),
        position=f.anchor(),
        offset=f.point("offset"),
        margin=f.number("margin", 36.0, low=0, high=MAX_EXTENT),
        tiled=f.boolean("tiled", False),
        spacing=f.number("spacing", 72.0, low=0, high=MAX_EXTENT),
        pages=f.pages(),
        searchable=f.boolean("searchable", True),
        width=width,
    )


def texts(spec: StampSpec) -> tuple[str, ...]:
    return (spec.text,) if spec.text else ()


def sheet_of(spec: StampSpec, state: RunState, path: str) -> pymupdf.Document:
    if spec.text is not None:
        sheet = sheets.text_sheet(
            spec.text,
            spec.font,
            spec.font_size,
            spec.color,
            searchable=spec.searchable,
        )
    else:
        assert spec.image is not None
        file = state.context.images.get(spec.image)
        if file is None:
            raise InvalidOperation(f"{path}.image", "unknown image document")
        sheet = sheets.image_sheet(file, spec.width, f"{path}.image")
    sheets.fade(sheet, spec.opacity)
    return sheet


def apply(doc: pymupdf.Document, spec: StampSpec, state: RunState, path: str) -> None:
    """Draw the stamp on the chosen pages, over their content."""
    with sheet_of(spec, state, path) as sheet:
        drawer = placement.Sheets(doc, sheet)
    size = placement.rotated_size(*drawer.size, spec.rotation)
    for number in selected_pages(spec.pages, doc.page_count, path):
        page = doc[number]
        if spec.tiled:
            boxes = placement.tiles(page, size, spec.spacing, spec.offset)
        else:
            boxes = [
                placement.anchored(page, size, spec.position, spec.margin, spec.offset)
            ]
        drawer.draw(page, boxes, spec.rotation)
