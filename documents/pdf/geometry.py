"""The one place where displayed-page space meets the PDF's own spaces.

Displayed space (decisions §4): points, origin at the top-left corner of the page
as displayed (CropBox with /Rotate applied), x right, y down.
PyMuPDF's page space: the unrotated page, origin top-left of the CropBox, y down.
PDF user space: the unrotated page, origin bottom-left of the MediaBox, y up.
"""

from __future__ import annotations

import pymupdf

from documents.pdf.types import Box, Point


def box_to_rect(box: Box) -> pymupdf.Rect:
    return pymupdf.Rect(box.x, box.y, box.x + box.w, box.y + box.h)


def rect_to_box(rect: pymupdf.Rect) -> Box:
    return Box(x=rect.x0, y=rect.y0, w=rect.width, h=rect.height)


def page_rect_to_display(page: pymupdf.Page, rect: pymupdf.Rect) -> pymupdf.Rect:
    """A rectangle from PyMuPDF extraction (unrotated page) → displayed space."""
    return pymupdf.Rect(rect) * page.rotation_matrix


def display_to_page_rect(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    """A displayed-space box → PyMuPDF's unrotated page space (for drawing, redacting)."""
    return box_to_rect(box) * page.derotation_matrix


def display_to_page_point(page: pymupdf.Page, point: Point) -> pymupdf.Point:
    return pymupdf.Point(point.x, point.y) * page.derotation_matrix


def display_to_pdf_rect(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    """A displayed-space box → PDF user space (bottom-left origin), e.g. an /Rect."""
    rect = display_to_page_rect(page, box) * page.transformation_matrix
    rect.normalize()
    return rect


def line_rotation(direction: tuple[float, float], page_rotation: int) -> int:
    """Direction of a text line on the displayed page, in degrees (0, 90, 180, 270).

    `direction` is PyMuPDF's line `dir` (cos, sin) in unrotated page space, y down.
    """
    cos, sin = direction
    if abs(cos) >= abs(sin):
        base = 0 if cos >= 0 else 180
    else:
        base = 90 if sin > 0 else 270
    return (base + page_rotation) % 360
