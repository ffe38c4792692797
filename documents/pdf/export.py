"""A PDF written out in other formats: page images and plain text.

Pages count from 0; images are drawn as displayed (rotation applied) at `dpi`.
"""

from __future__ import annotations

import zipfile

import pymupdf

from documents.pdf.failures import engine_failures, render_scale
from documents.pdf.layout import open_pdf
from documents.pdf.png import png_bytes

IMAGE_FORMATS = {"png": "png", "jpg": "jpeg"}


def export_images(src: str, dest: str, fmt: str, *, dpi: int = 150) -> str:
    """Every page of `src` as a `fmt` image ("png" or "jpg"): the image itself at
    `dest` for a one-page document, else a zip of `page-0001.<fmt>`... Returns the
    MIME type written (image/png, image/jpeg or application/zip)."""
    kind = IMAGE_FORMATS[fmt]
    with open_pdf(src) as doc, engine_failures("the pages cannot be drawn"):
        if doc.page_count == 1:
            with open(dest, "wb") as out:
                out.write(_image(doc[0], kind, dpi))
            return f"image/{kind}"
        with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as archive:
            for number, page in enumerate(doc, start=1):
                archive.writestr(f"page-{number:04d}.{fmt}", _image(page, kind, dpi))
        return "application/zip"


def _image(page: pymupdf.Page, kind: str, dpi: int) -> bytes:
    zoom = render_scale(page.rect.width, page.rect.height, dpi / 72)
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
    return pixmap.tobytes(kind, jpg_quality=90) if kind == "jpeg" else png_bytes(pixmap)


def export_text(src: str, dest: str) -> None:
    """The text of `src` in reading order, UTF-8, one form feed between pages."""
    with open_pdf(src) as doc, engine_failures("the text cannot be read"):
        with open(dest, "w", encoding="utf-8") as out:
            for number, page in enumerate(doc):
                if number:
                    out.write("\f")
                out.write(page.get_text("text", sort=True))
