"""The one place where displayed-page space meets the PDF's own spaces.

Displayed space (decisions §4): points, origin at the top-left corner of the page
as displayed (CropBox with /Rotate applied), x right, y down.
PyMuPDF's page space: the unrotated page, origin top-left of the CropBox, y down.
PDF user space: the unrotated page, origin bottom-left of the MediaBox, y up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pymupdf

from engines.pdf.types import Box, Point


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
    """A displayed-space box → PDF user space (bottom-left origin), e.g. an /Rect.

    PyMuPDF's page space starts at the CropBox's top-left corner; `page.cropbox`
    is measured from the MediaBox's top edge, `page.mediabox` in PDF units.
    (`page.transformation_matrix` ignores a CropBox offset, so it is not used.)
    """
    return display_to_pdf_rects(page, [box])[0]


def display_to_pdf_rects(
    page: pymupdf.Page, boxes: Sequence[Box]
) -> list[pymupdf.Rect]:
    """`display_to_pdf_rect` of each box, the page's boxes and rotation read
    once (each of these PyMuPDF properties costs 7 to 25 µs a read)."""
    derotation = page.derotation_matrix
    left, top = _crop_origin(page)
    rects = [box_to_rect(box) * derotation for box in boxes]
    return [
        pymupdf.Rect(left + r.x0, top - r.y1, left + r.x1, top - r.y0) for r in rects
    ]


def display_to_page_rects(
    page: pymupdf.Page, boxes: Sequence[Box]
) -> list[pymupdf.Rect]:
    """`display_to_page_rect` of each box, the rotation read once."""
    derotation = page.derotation_matrix
    return [box_to_rect(box) * derotation for box in boxes]


def pdf_rect_to_display(page: pymupdf.Page, rect: pymupdf.Rect) -> Box:
    """An /Rect in PDF user space → a displayed-space box (inverse of the above)."""
    left, top = _crop_origin(page)
    page_rect = pymupdf.Rect(
        rect.x0 - left, top - rect.y1, rect.x1 - left, top - rect.y0
    )
    return rect_to_box(page_rect_to_display(page, page_rect))


def display_to_pdf_matrix(page: pymupdf.Page) -> pymupdf.Matrix:
    """The matrix taking displayed-space points to PDF user space.

    For content written into the page (e.g. an OCR text layer after a `cm`): the
    inverse of what a viewer applies, /Rotate and the CropBox offset included, so
    that what is drawn at a displayed position shows there. Rects through it
    equal `display_to_pdf_rect`.
    """
    left, top = _crop_origin(page)
    return page.derotation_matrix * pymupdf.Matrix(1, 0, 0, -1, left, top)


def _crop_origin(page: pymupdf.Page) -> tuple[float, float]:
    """PDF coordinates of the CropBox's left and top edges."""
    return page.cropbox.x0, page.mediabox.y1 - page.cropbox.y0


RectTuple = tuple[float, float, float, float]


def display_transformer(page: pymupdf.Page) -> Callable[[Sequence[float]], RectTuple]:
    """`page_rect_to_display` on plain (x0, y0, x1, y1) floats, for many rectangles.

    The page's rotation matrix is read once (the property costs ~25 µs a call) and
    no Rect objects are made: text extraction transforms every character box.
    Exact for page rotations, which map axis-aligned boxes to axis-aligned boxes.
    """
    m = page.rotation_matrix
    a, b, c, d, e, f = m.a, m.b, m.c, m.d, m.e, m.f

    def transform(r: Sequence[float]) -> RectTuple:
        x0, y0 = r[0] * a + r[1] * c + e, r[0] * b + r[1] * d + f
        x1, y1 = r[2] * a + r[3] * c + e, r[2] * b + r[3] * d + f
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    return transform


Boxes = npt.NDArray[np.float64]


def display_boxes_transformer(
    page: pymupdf.Page, rotation: int | None = None
) -> Callable[[Boxes], Boxes]:
    """`display_transformer` on an (n, 4) array of boxes, for a whole page at once.

    Text extraction transforms every character box; a Python call per box cost
    more than MuPDF's own extraction. The arithmetic is done in the same order and
    `min`/`max` pick the same operand, so each value equals `display_transformer`'s.
    `rotation` is `page.rotation` when the caller has read it already.
    """
    if rotation is None:
        rotation = page.rotation
    if rotation == 0:
        # An unrotated page's matrix is the identity, not worth reading (~20 µs).
        return _unrotated_boxes
    m = page.rotation_matrix
    return lambda boxes: _transform_boxes(boxes, m.a, m.b, m.c, m.d, m.e, m.f)


def _transform_boxes(
    boxes: Boxes, a: float, b: float, c: float, d: float, e: float, f: float
) -> Boxes:
    x0, y0, x1, y1 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    # Like Python floats, NaN and infinity pass through without a warning.
    with np.errstate(all="ignore"):
        left, top = x0 * a + y0 * c + e, x0 * b + y0 * d + f
        right, bottom = x1 * a + y1 * c + e, x1 * b + y1 * d + f
    return _ordered(left, top, right, bottom)


def _unrotated_boxes(boxes: Boxes) -> Boxes:
    """`_transform_boxes` by the identity: for finite p and q, p * 1 + q * 0 + 0 is
    p + 0.0 (which only turns -0.0 into 0.0); NaN or infinity take the long way."""
    if not np.isfinite(boxes).all():
        return _transform_boxes(boxes, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    moved = boxes + 0.0
    return _ordered(moved[:, 0], moved[:, 1], moved[:, 2], moved[:, 3])


def _ordered(left: Boxes, top: Boxes, right: Boxes, bottom: Boxes) -> Boxes:
    """(min, min, max, max) of two corners, column by column: Python's min(p, q) is
    q only when q < p, max(p, q) q only when q > p, and NaN compares false."""
    out = np.empty((len(left), 4))
    out[:, 0] = np.where(right < left, right, left)
    out[:, 1] = np.where(bottom < top, bottom, top)
    out[:, 2] = np.where(right > left, right, left)
    out[:, 3] = np.where(bottom > top, bottom, top)
    return out


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
