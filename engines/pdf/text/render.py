"""Page images: a page of a cached document drawn as PNG (or JPEG for a scan).

The image is drawn at the asked width through MuPDF's matrix (zoom, then the
asked rotation), never resized from a larger drawing. Filters (contrast,
brightness, inversion) are applied to the drawn pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pymupdf

from engines.errors import EngineError
from engines.pdf.failures import engine_failures, render_scale
from engines.pdf.png import png_bytes
from engines.pdf.text.cache import (
    cached_document,
    document_key,
    load_page,
    mupdf_lock,
)

_MAX_RENDER_WIDTH = 10_000
# A page whose only content is one JPEG covering at least this share of it is a
# scan: it answers JPEG, as the original does, which suits a photograph best.
_SCAN_COVER = 0.95
JPEG_QUALITY = 85


@dataclass(frozen=True, slots=True)
class ImageFilters:
    """Contrast and brightness from -100 to 100 (0: unchanged); invert from 0 to
    100, the share of the inverted image mixed in (100: a negative)."""

    contrast: int = 0
    brightness: int = 0
    invert: int = 0

    @property
    def neutral(self) -> bool:
        return self.contrast == 0 and self.brightness == 0 and self.invert == 0


@dataclass(frozen=True, slots=True)
class ImageSpec:
    """What to draw: the image `width` in pixels (after rotation), the page turned
    `rotation` degrees clockwise (0, 90, 180, 270) beyond its own /Rotate."""

    width: int
    rotation: int = 0
    filters: ImageFilters = field(default_factory=ImageFilters)


@dataclass(frozen=True, slots=True)
class PageImage:
    data: bytes
    media_type: str  # image/png or image/jpeg


def render_page_png(path: str, page_index: int, width: int) -> bytes:
    """PNG of the 0-based page as displayed (rotation applied), `width` pixels wide."""
    return render_page(path, page_index, ImageSpec(width), allow_jpeg=False).data


def render_page(
    path: str, page_index: int, spec: ImageSpec, *, allow_jpeg: bool = True
) -> PageImage:
    """The 0-based page as displayed, drawn as `spec` says: PNG, or JPEG when the
    page is a single JPEG scan (and `allow_jpeg`)."""
    if not 1 <= spec.width <= _MAX_RENDER_WIDTH:
        raise EngineError(f"width must be between 1 and {_MAX_RENDER_WIDTH} pixels")
    if spec.rotation not in (0, 90, 180, 270):
        raise EngineError("rotation must be 0, 90, 180 or 270")
    with mupdf_lock:
        key = document_key(path)
        page = load_page(cached_document(key), page_index)
        turned = spec.rotation in (90, 270)
        # page.rect is the displayed page; the zoom maps the side that ends up
        # horizontal onto `width`.
        across = page.rect.height if turned else page.rect.width
        zoom = spec.width / across
        if render_scale(page.rect.width, page.rect.height, zoom) < zoom:
            most = int(render_scale(page.rect.width, page.rect.height, zoom) * across)
            raise EngineError(
                f"page {page_index} is too large to draw {spec.width} px wide; "
                f"ask for at most {most} px"
            )
        with engine_failures(f"page {page_index} cannot be drawn"):
            jpeg = allow_jpeg and _is_jpeg_scan(page)
            matrix = pymupdf.Matrix(zoom, zoom).prerotate(spec.rotation)
            pixmap = page.get_pixmap(matrix=matrix, alpha=False)
    if not spec.filters.neutral:
        pixmap = _filtered(pixmap, spec.filters)
    if jpeg:
        return PageImage(pixmap.tobytes("jpeg", jpg_quality=JPEG_QUALITY), "image/jpeg")
    return PageImage(png_bytes(pixmap), "image/png")


def _is_jpeg_scan(page: pymupdf.Page) -> bool:
    images = page.get_images(full=True)
    if len(images) != 1:
        return False
    xref, smask, filter_name = images[0][0], images[0][1], images[0][8]
    if filter_name != "DCTDecode" or smask:
        return False
    covered = sum(abs(r) for r in page.get_image_rects(xref))
    return covered >= _SCAN_COVER * abs(page.rect)


def _filtered(pixmap: pymupdf.Pixmap, filters: ImageFilters) -> pymupdf.Pixmap:
    """Contrast about mid-grey, then brightness, then inversion, on every channel.

    Each is a function of the channel's value alone, so one 256-entry table maps
    every byte (a pass over the pixels instead of one float array per step)."""
    values = np.arange(256, dtype=np.float32)
    values = (values - 128.0) * ((100 + filters.contrast) / 100) + 128.0
    values += filters.brightness * 2.55
    share = filters.invert / 100
    values = values * (1 - share) + (255.0 - values) * share
    table = np.clip(np.rint(values), 0, 255).astype(np.uint8)
    pixels = np.frombuffer(pixmap.samples, dtype=np.uint8)
    return pymupdf.Pixmap(
        pixmap.colorspace, pixmap.width, pixmap.height, table[pixels].tobytes(), False
    )
