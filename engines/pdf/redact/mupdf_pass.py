"""MuPDF's own redaction pass on a page, and the fill painted over the areas.

Areas for MuPDF are in PyMuPDF's page space; the fill's boxes are in displayed
space, converted through `geometry`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pymupdf

from engines.pdf import geometry
from engines.pdf.types import Box, Rgb

_mupdf = pymupdf.mupdf
Rect4 = tuple[float, float, float, float]


def apply_mupdf(
    page: pymupdf.Page, rects: Sequence[Rect4], *, text: bool, images_and_paths: bool
) -> None:
    """Redact `rects`: text, and/or image pixels and the paths they cover.

    MuPDF is called directly: PyMuPDF's `apply_redactions` adds a scan of the
    page's annotations and an overlay step that has nothing to draw here (no
    redaction has a fill; `fill` paints the areas).
    """
    if not rects:
        return
    for rect in rects:
        page.add_redact_annot(pymupdf.Rect(rect), fill=[], cross_out=False)
    options = _mupdf.PdfRedactOptions()
    options.black_boxes = 0
    options.text = (
        _mupdf.PDF_REDACT_TEXT_REMOVE if text else _mupdf.PDF_REDACT_TEXT_NONE
    )
    if images_and_paths:
        options.image_method = _mupdf.PDF_REDACT_IMAGE_PIXELS
        options.line_art = _mupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED
    else:
        options.image_method = _mupdf.PDF_REDACT_IMAGE_NONE
        options.line_art = _mupdf.PDF_REDACT_LINE_ART_NONE
    pdf_page = _mupdf.pdf_page_from_fz_page(page.this)
    _mupdf.pdf_redact_page(pdf_page.doc(), pdf_page, options)


def fill(page: pymupdf.Page, areas: Sequence[tuple[Box, Rgb]]) -> None:
    """Paint the areas over the page content, in PDF user space.

    Not with PyMuPDF's Shape: on a rotated page whose CropBox does not start at
    the MediaBox origin it misplaces what it draws by that offset.
    """
    doc = page.parent
    operators = []
    rects = geometry.display_to_pdf_rects(page, [box for box, _ in areas])
    for (_, colour), rect in zip(areas, rects, strict=True):
        red, green, blue = colour.unit()
        operators.append(
            f"{red:.6g} {green:.6g} {blue:.6g} rg "
            f"{rect.x0:.3f} {rect.y0:.3f} {rect.width:.3f} {rect.height:.3f} re f"
        )
    page.wrap_contents()  # whatever state the content leaves, start afresh
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, ("q\n" + "\n".join(operators) + "\nQ\n").encode())
    streams = [*page.get_contents(), xref]
    doc.xref_set_key(
        page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in streams) + "]"
    )


@contextmanager
def pending_redactions_hidden(page: pymupdf.Page) -> Iterator[None]:
    """Disguise the page's own Redact annotations: MuPDF applies every one."""
    doc = page.parent
    pending = [annot.xref for annot in page.annots(types=(_mupdf.PDF_ANNOT_REDACT,))]
    for xref in pending:
        doc.xref_set_key(xref, "Subtype", "/Square")
    try:
        yield
    finally:
        for xref in pending:
            doc.xref_set_key(xref, "Subtype", "/Redact")
