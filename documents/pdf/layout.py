"""What a file is and how its pages are laid out (computed once, at upload)."""

from __future__ import annotations

import math

import pymupdf

from documents.pdf.types import DocumentInfo, PageLayout, UnsupportedDocument

PDF = "application/pdf"

# Magic numbers, checked against the first bytes of the file (never the name).
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%FDF-", "application/vnd.fdf"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
)


def sniff(head: bytes) -> str | None:
    """MIME type from the first bytes of a file, or None when unknown.

    A PDF header may follow some junk (up to 1 KiB), as readers accept it.
    """
    if b"%PDF-" in head[:1024]:
        return PDF
    for magic, mime in _MAGIC:
        if head.startswith(magic):
            return mime
    return None


def open_pdf(path: str) -> pymupdf.Document:
    """Open a PDF, unlocking it with the empty password when it is encrypted."""
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises plain RuntimeError/FileDataError
        raise UnsupportedDocument(f"the file is not a readable PDF ({exc})") from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise UnsupportedDocument("the PDF is encrypted with a password; upload it unencrypted")
    if doc.page_count == 0:
        doc.close()
        raise UnsupportedDocument("the PDF has no pages")
    return doc


def inspect_pdf(path: str) -> DocumentInfo:
    """Page sizes as displayed (CropBox, /Rotate applied, truncated) and rotations."""
    with open_pdf(path) as doc:
        pages = []
        for page in doc:
            rect = page.rect  # CropBox with the rotation applied
            pages.append(PageLayout(width=_trunc(rect.width), height=_trunc(rect.height),
                                    rotation=page.rotation % 360))
        title = (doc.metadata or {}).get("title") or None
    return DocumentInfo(mime_type=PDF, pages=tuple(pages), title=title)


def _trunc(value: float) -> int:
    # 841.89 → 841, but 791.9999999 (float noise) → 792.
    return math.floor(value + 1e-6)
