"""A PDF written out in other formats: page images, plain text and Markdown.

Pages count from 0; images are drawn as displayed (rotation applied) at `dpi`.
Text comes from the PDF's text layer (for a scan, its OCR layer): nothing here
recognises characters itself.
"""

from __future__ import annotations

import threading
import zipfile
from types import ModuleType

import pymupdf

from engines.pdf.failures import engine_failures, render_scale
from engines.pdf.layout import open_pdf
from engines.pdf.png import png_bytes

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
    """The text of `src` in reading order, UTF-8, one form feed between pages.

    Reading order is the order in which the page draws its text blocks, as
    writers (word processors, TeX, OCR engines) lay them out: column by column.
    Sorting lines by position instead runs across columns ("column 1 column 2"
    for the first line of each), which is why the text is not sorted.
    """
    with open_pdf(src) as doc, engine_failures("the text cannot be read"):
        with open(dest, "w", encoding="utf-8") as out:
            for number, page in enumerate(doc):
                if number:
                    out.write("\f")
                out.write(page.get_text("text"))


def export_markdown(src: str, dest: str) -> None:
    """The text of `src` as Markdown, UTF-8: headings (from font sizes),
    paragraphs, lists, tables (from ruling lines), bold and italic, code in
    monospaced fonts; images left out. Pages follow each other without a mark.

    Made by pymupdf4llm (PyMuPDF's own Markdown writer, AGPL-3.0 as PyMuPDF)
    in its rule-based mode: its layout model (an ONNX network) finds some
    headings better but was 1.6 to 1.8 times slower on the corpus's papers
    and tables, and loads the ONNX runtime into the worker.
    """
    rag = _markdown_writer()
    with open_pdf(src) as doc, engine_failures("the text cannot be read"):
        text = rag.to_markdown(
            doc, show_progress=False, ignore_images=True, write_images=False
        )
    with open(dest, "w", encoding="utf-8") as out:
        out.write(text)


_IMPORT = threading.Lock()


def _markdown_writer() -> ModuleType:
    """pymupdf4llm's rule-based writer, imported on first use (1.5 s, 100 MB).

    Importing pymupdf4llm switches PyMuPDF to its layout model for the whole
    process; `use_layout(False)` switches it back before anything else runs.
    """
    with _IMPORT:
        import pymupdf4llm  # type: ignore[import-untyped]

        pymupdf4llm.use_layout(False)
        from pymupdf4llm.helpers import pymupdf_rag  # type: ignore[import-untyped]

    return pymupdf_rag
