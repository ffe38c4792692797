"""A page drawn for Tesseract: grey pixels of the page as displayed.

Pages are drawn, not their images extracted: whatever the scan's colour space
(CMYK, Lab, indexed, 16 bits a sample, JBIG2, CCITT, JPEG 2000), MuPDF turns it
into 8-bit grey, which Tesseract reads; rotation, CropBox and image placement
are applied as a viewer shows them, so a pixel maps to displayed space by one
scale. Resolutions are dots per inch of the displayed page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymupdf

from engines.errors import PageTooLarge
from engines.pdf.failures import engine_failures

# When `dpi` is not set a scan is read at its own resolution: its pixels are all
# the information there is, and enlarging them only costs time (Tesseract reads
# 10 pt text well from 200 dpi on). Finer scans are reduced to MAX_AUTO_DPI:
# measured on the corpus (README, OCR) 200 dpi finds as many words as 300 (98.8
# against 97.3 %) and Tesseract's time follows the pixels, 2.25 times fewer.
MAX_AUTO_DPI = 200
DEFAULT_DPI = 200  # pages without an image (mode "always")
# Below this a page is not worth reading: 10 pt text would be 10 pixels high.
MIN_DPI = 70


@dataclass(frozen=True, slots=True)
class Raster:
    """A page drawn in grey, turned by `rotation` degrees clockwise.

    Tesseract's pixel boxes divided by `zoom` are points in the *frame*: the
    drawn page, upright for reading; `frame` takes frame points to displayed
    space (it undoes the turn), `frame_height` is the frame's height in points.
    """

    pnm: bytes
    width: int
    height: int
    zoom: float  # pixels per point
    rotation: int
    frame: pymupdf.Matrix
    capped: bool  # drawn below the resolution asked for, to fit the pixel cap

    @property
    def dpi(self) -> float:
        return self.zoom * 72

    @property
    def frame_height(self) -> float:
        return self.height / self.zoom


def scan_dpi(page: pymupdf.Page) -> float | None:
    """Resolution of the page's largest image as placed on the page, or None.

    A fax's 204 x 98 dpi counts as 204: the finer axis holds the detail.
    """
    best: tuple[float, float] | None = None
    for info in page.get_image_info():
        a, b, c, d, _, _ = info["transform"]
        across, down = math.hypot(a, b), math.hypot(c, d)  # points
        if across <= 0 or down <= 0:
            continue
        area = across * down
        dpi = max(info["width"] / across, info["height"] / down) * 72
        if best is None or area > best[0]:
            best = (area, dpi)
    return None if best is None else best[1]


def choose_dpi(page: pymupdf.Page, asked: int | None) -> float:
    """`asked`, or the scan's own resolution kept within MIN_DPI..MAX_AUTO_DPI."""
    if asked is not None:
        return float(asked)
    found = scan_dpi(page)
    if found is None:
        return float(DEFAULT_DPI)
    return float(min(max(found, MIN_DPI), MAX_AUTO_DPI))


def draw(
    page: pymupdf.Page,
    dpi: float,
    max_pixels: int,
    page_index: int,
    rotation: int = 0,
) -> Raster:
    """The 0-based page drawn in grey at `dpi`, or lower to stay within
    `max_pixels` (PageTooLarge below MIN_DPI), turned `rotation` degrees
    clockwise (0, 90, 180, 270). Annotations are not drawn: their text is not
    the page's, and redaction removes them anyway."""
    width, height = page.rect.width, page.rect.height
    zoom = dpi / 72
    capped = width * zoom * height * zoom > max_pixels
    if capped:
        zoom = math.sqrt(max_pixels / (width * height))
        if zoom * 72 < MIN_DPI:
            raise PageTooLarge(
                f"the page is {width / 72:.0f} x {height / 72:.0f} in; within the "
                f"limit of {max_pixels:,} pixels it could only be read at "
                f"{zoom * 72:.0f} dpi, too coarse for OCR (at least {MIN_DPI} dpi)"
            )
    matrix = pymupdf.Matrix(zoom, zoom) * pymupdf.Matrix(rotation)
    with engine_failures(f"page {page_index} cannot be drawn for OCR"):
        pixmap = page.get_pixmap(
            matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False, annots=False
        )
        pnm = pixmap.tobytes("pnm")
    # Pixel (i, j) lies at (i + x, j + y) in the drawing's space, the displayed
    # page through `matrix`; a frame point is a pixel over `zoom`.
    frame = pymupdf.Matrix(zoom, 0, 0, zoom, pixmap.x, pixmap.y) * ~matrix
    return Raster(pnm, pixmap.width, pixmap.height, zoom, rotation, frame, capped)
