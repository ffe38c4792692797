"""Where a stamp or a number goes on the displayed page, and drawing a prepared
one-page "sheet" there.

Positions are points in displayed-page space (top-left origin of the page as
displayed, /Rotate and CropBox applied, decisions §4). A sheet is drawn as a
form XObject: MuPDF keeps one copy of it however many pages show it.
"""

from __future__ import annotations

import math

import pymupdf

from engines.pdf import geometry
from engines.pdf.ops.fields import ANCHORS
from engines.pdf.types import Box


def rotated_size(w: float, h: float, angle: float) -> tuple[float, float]:
    """Width and height of the box that holds a w x h rectangle turned by
    `angle` degrees."""
    rad = math.radians(angle)
    cos, sin = abs(math.cos(rad)), abs(math.sin(rad))
    return (w * cos + h * sin, w * sin + h * cos)


def anchored(
    page: pymupdf.Page,
    size: tuple[float, float],
    anchor: str,
    margin: float,
    offset: tuple[float, float],
) -> Box:
    """A box of `size` at `anchor` of the displayed page, `margin` points from
    the edges it is anchored to, moved by `offset` (x right, y down)."""
    w, h = size
    fx, fy = ANCHORS[anchor]
    width, height = page.rect.width, page.rect.height
    x = margin + fx * (width - 2 * margin - w) + offset[0]
    y = margin + fy * (height - 2 * margin - h) + offset[1]
    return Box(x, y, w, h)


def tiles(
    page: pymupdf.Page,
    size: tuple[float, float],
    spacing: float,
    offset: tuple[float, float],
) -> list[Box]:
    """Boxes of `size` repeated over the whole displayed page, `spacing` points
    apart, the first one's top-left corner at `offset`; every other row is
    shifted by half a step, as watermarks usually are."""
    w, h = size
    step_x, step_y = w + spacing, h + spacing
    width, height = page.rect.width, page.rect.height
    boxes = []
    row = 0
    y = offset[1] % step_y - step_y
    while y < height:
        shift = (step_x / 2) if row % 2 else 0.0
        x = (offset[0] + shift) % step_x - step_x
        while x < width:
            if x + w > 0 and y + h > 0:
                boxes.append(Box(x, y, w, h))
            x += step_x
        y += step_y
        row += 1
    return boxes


class Sheets:
    """Draws one sheet on many pages of `doc` as one shared form XObject.

    PyMuPDF's `show_pdf_page` lists every resource of the page on each call,
    which grows with pages that share their resources: 1,000 pages took
    minutes. Here the XObject is made once; each page gets a reference in its
    resources and a few bytes of content.
    """

    def __init__(self, doc: pymupdf.Document, sheet: pymupdf.Document) -> None:
        self.doc = doc
        self.size = (sheet[0].rect.width, sheet[0].rect.height)
        scratch = doc.new_page(-1, width=self.size[0], height=self.size[1])
        self.xref = scratch.show_pdf_page(scratch.rect, sheet, 0)
        doc.delete_page(-1)
        self.name = f"TSsheet{self.xref}"
        # One "q" shared by every page: with the "Q" of each page's own
        # stream it keeps the page's graphics state away from the sheet.
        self.save_state = doc.get_new_xref()
        doc.update_object(self.save_state, "<<>>")
        doc.update_stream(self.save_state, b"q\n")

    def draw(self, page: pymupdf.Page, boxes: list[Box], angle: float) -> None:
        """The sheet in each displayed box (its `rotated_size`), turned `angle`
        degrees counter-clockwise as the reader sees the page."""
        doc, (w, h) = self.doc, self.size
        to_pdf = geometry.display_to_pdf_matrix(page)
        lines = [b"Q"]
        for box in boxes:
            centre = (box.x + box.w / 2, box.y + box.h / 2)
            m = (
                pymupdf.Matrix(1, 0, 0, 1, -w / 2, -h / 2)
                * pymupdf.Matrix(angle)  # counter-clockwise, y up
                * pymupdf.Matrix(1, 0, 0, -1, centre[0], centre[1])  # to y down
                * to_pdf
            )
            numbers = " ".join(f"{v:.4f}" for v in (m.a, m.b, m.c, m.d, m.e, m.f))
            lines.append(f"q {numbers} cm /{self.name} Do Q".encode())
        put_resource(doc, page.xref, "XObject", self.name, f"{self.xref} 0 R")
        stream = doc.get_new_xref()
        doc.update_object(stream, "<<>>")
        doc.update_stream(stream, b"\n".join(lines) + b"\n")
        contents = " ".join(f"{x} 0 R" for x in page.get_contents())
        doc.xref_set_key(
            page.xref, "Contents", f"[{self.save_state} 0 R {contents} {stream} 0 R]"
        )


def put_resource(
    doc: pymupdf.Document, page_xref: int, kind: str, name: str, value: str
) -> None:
    """Set /Resources/<kind>/<name> of a page (or form), through indirect objects."""
    holder, key = page_xref, "Resources"
    for step in (kind, name):
        found, ref = doc.xref_get_key(holder, key)
        if found == "xref":
            holder, key = int(ref.split()[0]), step
        else:
            key = f"{key}/{step}"
    doc.xref_set_key(holder, key, value)


def overlaps(box: Box, areas: list[Box], clearance: float) -> bool:
    """Whether `box`, grown by `clearance` points, meets any of `areas`."""
    x0, y0 = box.x - clearance, box.y - clearance
    x1, y1 = box.x + box.w + clearance, box.y + box.h + clearance
    return any(
        x0 < a.x + a.w and a.x < x1 and y0 < a.y + a.h and a.y < y1 for a in areas
    )


def inside(page: pymupdf.Page, box: Box) -> bool:
    rect = page.rect
    return (
        box.x >= -0.01
        and box.y >= -0.01
        and box.x + box.w <= rect.width + 0.01
        and box.y + box.h <= rect.height + 0.01
    )
