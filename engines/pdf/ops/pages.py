"""Rotate pages by quarter turns; crop them to a box.

Both change only how a page is displayed (/Rotate, /CropBox): nothing is drawn
or removed, so they run after redaction, whose areas are placed on the pages
as assembled. Cropping hides what lies outside the box; it does not delete it
(a redaction does). Boxes are points on the displayed page at the time the
operation runs (top-left origin); pages are 1-based inclusive ranges.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf import geometry
from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState, selected_pages
from engines.pdf.types import Box, PageRange

ANGLES = (90, 180, 270)


@dataclass(frozen=True, slots=True)
class RotateSpec:
    """Turn the pages clockwise by `angle` degrees (90, 180 or 270), as viewers'
    "rotate right" does."""

    angle: int
    pages: tuple[PageRange, ...] | None = None


@dataclass(frozen=True, slots=True)
class CropSpec:
    box: Box
    pages: tuple[PageRange, ...] | None = None


def parse_rotate(f: Fields) -> RotateSpec:
    angle = f.integer("angle", 0, low=-270, high=270)
    if angle % 360 not in ANGLES:
        raise f.fail("angle", "must be 90, 180 or 270 (or -90, -180, -270)")
    return RotateSpec(angle=angle % 360, pages=f.pages())


def parse_crop(f: Fields) -> CropSpec:
    return CropSpec(box=f.box("box"), pages=f.pages())


def rotate(doc: pymupdf.Document, spec: RotateSpec, state: RunState, path: str) -> None:
    for number in selected_pages(spec.pages, doc.page_count, path):
        page = doc[number]
        page.set_rotation((page.rotation + spec.angle) % 360)


def crop(doc: pymupdf.Document, spec: CropSpec, state: RunState, path: str) -> None:
    """Set each page's /CropBox to `box` as displayed, clipped to the MediaBox."""
    for number in selected_pages(spec.pages, doc.page_count, path):
        page = doc[number]
        wanted = geometry.display_to_pdf_rect(page, spec.box)
        media = _media_box(page)
        kept = wanted & media
        if kept.is_empty or kept.width < 3 or kept.height < 3:
            raise InvalidOperation(
                f"{path}.box", f"leaves nothing of page {number + 1} to show"
            )
        page.parent.xref_set_key(
            page.xref,
            "CropBox",
            f"[{kept.x0:g} {kept.y0:g} {kept.x1:g} {kept.y1:g}]",
        )


def _media_box(page: pymupdf.Page) -> pymupdf.Rect:
    """The MediaBox in PDF user space (y up), inherited or not."""
    media = page.mediabox  # PyMuPDF: x0, y0 as in the file, y1 = y0 + height
    return pymupdf.Rect(media.x0, media.y0, media.x1, media.y1)
