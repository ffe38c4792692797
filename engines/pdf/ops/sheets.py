"""One-page PDFs ("sheets") holding what a stamp draws: text, outlined text or an
image, already in its colour and opacity. Sizes are points.

A sheet is made once per operation and shown on every page as one shared form
XObject, so stamping 1,000 pages stores the stamp once.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.ops import placement
from engines.pdf.types import Rgb

# Font names on the wire → MuPDF's built-in fonts (the base-14 designs, embedded
# as subsets, so every reader draws the same glyphs).
FONTS = {
    "helvetica": "helv",
    "helvetica-bold": "hebo",
    "times": "tiro",
    "times-bold": "tibo",
    "courier": "cour",
    "courier-bold": "cobo",
}
# For text the chosen font cannot draw (Greek, Cyrillic, Arabic, CJK...).
WIDE_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
# Room around the text so that no glyph (accents, descenders) is clipped.
PAD = 0.1


@lru_cache(maxsize=64)
def font(name: str, text: str = "") -> pymupdf.Font:
    """The font to draw `text` with: `name`'s own, else a wide-coverage one."""
    chosen = pymupdf.Font(FONTS[name])
    if all(chosen.has_glyph(ord(c)) for c in text if not c.isspace()):
        return chosen
    for fallback in _fallbacks():
        if all(fallback.has_glyph(ord(c)) for c in text if not c.isspace()):
            return fallback
    return chosen


@cache
def _fallbacks() -> tuple[pymupdf.Font, ...]:
    fonts = [pymupdf.Font(fontfile=WIDE_FONT)] if os.path.isfile(WIDE_FONT) else []
    return (*fonts, pymupdf.Font("cjk"))


def text_sheet(
    text: str, font_name: str, size: float, color: Rgb, *, searchable: bool
) -> pymupdf.Document:
    """`text` (lines split at newlines, centred) in one sheet just large enough.

    Not searchable: the glyphs become filled paths (MuPDF's SVG writer turns
    text into paths, and its SVG reader makes a PDF of them), so no reader can
    extract the words.
    """
    lines = text.split("\n")
    face = font(font_name, text)
    line_height = size * (face.ascender - face.descender)
    widths = [face.text_length(line, fontsize=size) for line in lines]
    pad = size * PAD
    width = max(widths) + 2 * pad
    height = line_height * len(lines) + 2 * pad
    sheet = pymupdf.open()
    page = sheet.new_page(width=max(width, 1), height=max(height, 1))
    writer = pymupdf.TextWriter(page.rect)
    for n, (line, line_width) in enumerate(zip(lines, widths, strict=True)):
        baseline = pad + line_height * n + size * face.ascender
        writer.append(((width - line_width) / 2, baseline), line, face, size)
    writer.write_text(page, color=color.unit())
    if searchable:
        return sheet
    svg = page.get_svg_image(text_as_path=True)
    sheet.close()
    with pymupdf.open(stream=svg.encode(), filetype="svg") as drawing:
        return pymupdf.open("pdf", drawing.convert_to_pdf())


def image_sheet(path: str, width: float | None, field: str) -> pymupdf.Document:
    """An image file (PNG, JPEG, TIFF: its first frame at its resolution, 72 dpi
    when unset) or a PDF's first page (kept as vectors), scaled to `width`
    points when given."""
    try:
        source = pymupdf.open(path)
    except Exception as exc:  # MuPDF raises plain errors for unreadable files
        raise InvalidOperation(field, "the image cannot be read") from exc
    with source:
        if not source.is_pdf:
            source = pymupdf.open("pdf", source.convert_to_pdf(0, 1))
        first = source[0].rect
        scale = (width / first.width) if width else 1.0
        sheet = pymupdf.open()
        page = sheet.new_page(width=first.width * scale, height=first.height * scale)
        page.show_pdf_page(page.rect, source, 0)
    return sheet


def fade(sheet: pymupdf.Document, opacity: float) -> None:
    """Draw the whole sheet at `opacity` (0 to 1), strokes and fills alike."""
    if opacity >= 1:
        return
    page = sheet[0]
    state = sheet.get_new_xref()
    sheet.update_object(state, f"<</Type/ExtGState/ca {opacity:g}/CA {opacity:g}>>")
    placement.put_resource(sheet, page.xref, "ExtGState", "TSfade", f"{state} 0 R")
    content = b"q /TSfade gs\n" + page.read_contents() + b"\nQ"
    stream = sheet.get_new_xref()
    sheet.update_object(stream, "<<>>")
    sheet.update_stream(stream, content)
    sheet.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
