"""Pixel comparison of two PDFs, page pair by page pair.

Page pair i is page i (0-based) of each document; sizes are in points, images at
a resolution in dpi.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np
import pikepdf
import pymupdf

from engines.errors import EngineError
from engines.pdf.compare.opening import SIDES, open_pdf
from engines.pdf.failures import engine_failures, render_scale
from engines.pdf.types import CompareStyle, Rgb

_COLOR = re.compile(r"#?([0-9a-fA-F]{6})")
_CHUNK_PAGES = 32


def parse_color(value: str) -> Rgb:
    """Parse "ff0000", "FF0000" or "#ff0000" into an Rgb; ValueError otherwise."""
    match = _COLOR.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(
            f"not a colour: {value!r} (expected six hex digits like ff0000)"
        )
    digits = match.group(1)
    return Rgb(int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def pixel_compare(
    left: str,
    right: str,
    dest: str,
    style: CompareStyle,
    *,
    dpi: int = 96,
    labels: tuple[str, str] = SIDES,
) -> int:
    """Write to `dest` a PDF showing where page pairs differ; returns its page count.
    Errors name the documents by `labels`, never by their paths.

    Page pair i is page i (0-based) of each document; a page present on one side
    only is compared with a blank page, so all its content is highlighted. A pixel
    differs when some RGB channel differs by more than `style.fuzz` percent of 255
    (fuzz 0 = exact). Each output page is an image at `dpi` of the right page (the
    left one when the right is absent), top-left aligned on a page as large as the
    larger of the two displayed pages (points) so neither is cut; differing pixels
    are painted `style.highlight`, and when `style.lowlight` is set the other
    non-white pixels are tinted with it (black becomes the lowlight colour).
    Memory is bounded by one page pair plus a chunk of `_CHUNK_PAGES` output pages.
    """
    if not 0 <= style.fuzz <= 100:
        raise EngineError("fuzz must be between 0 and 100 percent")
    if dpi < 1:
        raise EngineError("dpi must be positive")
    with open_pdf(left, labels[0]) as left_doc, open_pdf(right, labels[1]) as right_doc:
        count = int(max(left_doc.page_count, right_doc.page_count))
        if count == 0:
            raise EngineError("both documents have no pages")
        with _ChunkedWriter(dest) as writer:
            for i in range(count):
                writer.add(
                    *_compare_pair(_page(left_doc, i), _page(right_doc, i), style, dpi)
                )
    return count


def _page(doc: pymupdf.Document, index: int) -> pymupdf.Page | None:
    return doc[index] if index < doc.page_count else None


def _render(page: pymupdf.Page | None, dpi: int) -> np.ndarray | None:
    if page is None:
        return None
    # Huge pages are drawn at a lower resolution rather than beyond the pixel budget.
    zoom = render_scale(page.rect.width, page.rect.height, dpi / 72)
    with engine_failures(f"page {page.number} cannot be drawn for the comparison"):
        pix = page.get_pixmap(
            matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csRGB, alpha=False
        )
    # `samples` copies: a view of `samples_mv` dies with the pixmap.
    rows = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)
    return rows[:, : pix.width * 3].reshape(pix.height, pix.width, 3)


def _on_canvas(image: np.ndarray | None, height: int, width: int) -> np.ndarray:
    canvas = np.full((height, width, 3), 255, dtype=np.uint8)
    if image is not None:
        canvas[: image.shape[0], : image.shape[1]] = image
    return canvas


def _compare_pair(
    left: pymupdf.Page | None, right: pymupdf.Page | None, style: CompareStyle, dpi: int
) -> tuple[pymupdf.Pixmap, float, float]:
    """The marked-up image of one page pair and its page size in points."""
    images = (_render(left, dpi), _render(right, dpi))
    height = max(i.shape[0] for i in images if i is not None)
    width = max(i.shape[1] for i in images if i is not None)
    left_px, right_px = (_on_canvas(i, height, width) for i in images)
    delta = np.abs(left_px.astype(np.int16) - right_px.astype(np.int16)).max(axis=2)
    differs = delta > float(style.fuzz) * 255 / 100
    out = right_px if images[1] is not None else left_px
    if style.lowlight is not None:
        out = _tint(out, style.lowlight)
    out[differs] = (style.highlight.r, style.highlight.g, style.highlight.b)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, width, height, out.tobytes(), False)
    pages = [p.rect for p in (left, right) if p is not None]
    return pixmap, max(r.width for r in pages), max(r.height for r in pages)


def _tint(image: np.ndarray, color: Rgb) -> np.ndarray:
    # Darkness (1 - luminance) picks how much of the lowlight colour replaces white.
    luminance = image @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    darkness = (255.0 - luminance)[..., None] / 255.0
    target = 255.0 - darkness * (
        255.0 - np.array([color.r, color.g, color.b], np.float32)
    )
    return np.clip(np.rint(target), 0, 255).astype(np.uint8)


class _ChunkedWriter:
    """Writes image pages to `dest`, flushing every `_CHUNK_PAGES` pages to disk.

    Chunks are joined with pikepdf, which copies their streams from the chunk
    files at save time instead of holding every page image in memory.
    """

    def __init__(self, dest: str) -> None:
        self.dest = dest
        self.tmp = tempfile.TemporaryDirectory(
            dir=Path(dest).parent, prefix=".compare-"
        )
        self.chunks: list[Path] = []
        self.doc = pymupdf.open()

    def __enter__(self) -> _ChunkedWriter:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        try:
            if kind is None:
                self._finish()
        finally:
            self.doc.close()
            self.tmp.cleanup()

    def add(self, pixmap: pymupdf.Pixmap, width: float, height: float) -> None:
        page = self.doc.new_page(width=width, height=height)
        page.insert_image(page.rect, pixmap=pixmap)
        if self.doc.page_count >= _CHUNK_PAGES:
            self._flush()

    def _flush(self) -> None:
        path = Path(self.tmp.name) / f"chunk-{len(self.chunks)}.pdf"
        self.doc.save(path, garbage=3, deflate=True)
        self.doc.close()
        self.chunks.append(path)
        self.doc = pymupdf.open()

    def _finish(self) -> None:
        if not self.chunks:
            self.doc.save(self.dest, garbage=3, deflate=True)
            return
        if self.doc.page_count:
            self._flush()
        sources = [pikepdf.open(path) for path in self.chunks]
        try:
            with pikepdf.new() as out:
                for source in sources:
                    out.pages.extend(source.pages)
                out.save(self.dest)
        finally:
            for source in sources:
                source.close()
