"""What a file is and how its pages are laid out (computed once, at upload).

Upload is also where hostile PDFs are turned away, before any order can reach
them: absurd page sizes, decompression bombs and page trees that the two PDF
libraries of the engine (MuPDF for layout, text and drawing; qpdf for assembly)
read differently. Each refusal is an `UnsupportedDocument` whose message says
what is wrong with the file.
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Iterable, Iterator

import pikepdf
import pymupdf

from engines.errors import EncryptedDocument, UnsupportedDocument
from engines.pdf.pagetree import PageTree
from engines.pdf.types import DocumentInfo, PageLayout

PDF = "application/pdf"

# ISO 32000 (Annex C) gives 3 to 14,400 units (200 in) per page side. MuPDF shows
# a side under 1 pt as a 1 x 1 pt page, and cannot draw much larger pages
# ("overly large" images when rendering or comparing them).
MIN_PAGE_SIDE = 3.0
MAX_PAGE_SIDE = 14_400.0

# Decompressed size allowed for one stream, and for all the streams checked
# together, bytes: the larger of a fixed amount and `MAX_RATIO` times the
# compressed size (of the stream; of the file). Real documents stay far below
# (text and vector content inflates 3 to 10 times; the largest content stream of
# the corpus is under 3 MB); a bomb of a few KB that inflates to gigabytes
# would hold a worker for minutes and, through qpdf, gigabytes of memory.
MAX_STREAM_BYTES = 256 * 1024 * 1024
MAX_STREAMS_BYTES = 1024 * 1024 * 1024
MAX_RATIO = 32
_FLATE = frozenset({"/FlateDecode", "/Fl"})
_FILTER, _TYPE, _SUBTYPE = (
    pikepdf.Name("/Filter"),
    pikepdf.Name("/Type"),
    pikepdf.Name("/Subtype"),
)
_IMAGE = pikepdf.Name("/Image")
_INFLATE_STEP = 1 << 20

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

    A PDF header may follow some junk (up to 1 KiB), as readers accept it, but a
    magic number at the start wins: a ZIP whose first entry is a stored PDF holds
    "%PDF-" in its first kilobyte too.
    """
    for magic, mime in _MAGIC:
        if head.startswith(magic):
            return mime
    if b"%PDF-" in head[:1024]:
        return PDF
    return None


_ENCRYPTED = "the PDF is encrypted with a password; upload it unencrypted"
_NO_PAGES = "the PDF has no pages"


def open_pdf(path: str, password: str = "") -> pymupdf.Document:
    """Open a PDF, unlocking it with `password` (the empty one by default) when
    it is encrypted."""
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises plain RuntimeError/FileDataError
        raise UnsupportedDocument(
            f"the file is not a readable PDF ({_reason(exc, path)})"
        ) from exc
    if doc.needs_pass and not doc.authenticate(password):
        doc.close()
        raise EncryptedDocument(_ENCRYPTED)
    if doc.page_count == 0:
        doc.close()
        raise UnsupportedDocument(_NO_PAGES)
    return doc


def inspect_pdf(
    path: str,
    *,
    max_pages: int | None = None,
    produced_here: bool = False,
    find_scans: bool = False,
    password: str = "",
) -> DocumentInfo:
    """Page sizes as displayed (CropBox, /Rotate applied, truncated) and rotations.

    Sizes are points; `pages[i]` is page i counted from 0. Raises
    `UnsupportedDocument` when the file is not a PDF the engine can work on:
    unreadable or password protected, more than `max_pages` pages, a page side
    under `MIN_PAGE_SIDE` or over `MAX_PAGE_SIDE` points, a decompression bomb
    (see `_check_streams`), or a page tree that qpdf reads differently from
    MuPDF. `produced_here`: the file is an output of this engine, written by qpdf
    or MuPDF from checked sources, so the bomb and page-tree checks are skipped.
    `find_scans`: also list the pages that may be scans to recognise: images and
    no font in their resources (a quick look; the OCR engine decides per page).
    `password` opens an output this engine encrypted.
    """
    tree = _page_tree(path, password)
    try:
        count = tree.page_count
        if count == 0:
            raise UnsupportedDocument(_NO_PAGES)
        if max_pages is not None and count > max_pages:
            # Checked before walking the pages: a small file can hold a million.
            raise UnsupportedDocument(
                f"the document has {count} pages; the limit is {max_pages}"
            )
        pages = []
        scans = []
        for number, page in enumerate(tree.pages(find_scans=find_scans), 1):
            if page.may_be_scan:
                scans.append(number - 1)
            _check_page_size(number, page.width, page.height)
            pages.append(
                PageLayout(
                    width=_trunc(page.width),
                    height=_trunc(page.height),
                    rotation=page.rotation,
                )
            )
        title = tree.title() or None
    except pymupdf.mupdf.FzErrorBase as exc:
        raise UnsupportedDocument(
            f"the pages of the PDF cannot be read ({_reason(exc, path)}); repair it or "
            "save it again as PDF, then upload it"
        ) from exc
    if not produced_here:
        _check_with_qpdf(path, count)
    return DocumentInfo(
        mime_type=PDF, pages=tuple(pages), title=title, scans=tuple(scans)
    )


def _page_tree(path: str, password: str) -> PageTree:
    try:
        tree = PageTree(path)
    except pymupdf.mupdf.FzErrorBase as exc:
        raise UnsupportedDocument(
            f"the file is not a readable PDF ({_reason(exc, path)})"
        ) from exc
    if tree.needs_password(password):
        raise EncryptedDocument(_ENCRYPTED)
    return tree


def _reason(exc: Exception, path: str) -> str:
    """MuPDF's message, without its error code ("code=7: no objects found") and
    without the file's path (PyMuPDF's "Failed to open file '<path>'")."""
    text = str(exc).strip().replace(repr(path), "it").replace(path, "it")
    return text.split(": ", 1)[1] if text.startswith("code=") else text


def _check_page_size(number: int, width: float, height: float) -> None:
    """`number` counts from 1 (it is shown to the user); sizes in points."""
    if all(MIN_PAGE_SIDE <= side <= MAX_PAGE_SIDE for side in (width, height)):
        return
    raise UnsupportedDocument(
        f"page {number} is {width:g} x {height:g} pt; a PDF page must be between "
        f"{MIN_PAGE_SIDE:g} and {MAX_PAGE_SIDE:,.0f} pt (200 in) on each side"
    )


def _check_streams(pdf: pikepdf.Pdf, file_size: int) -> None:
    """Refuse decompression bombs: Flate streams that inflate beyond the limits.

    Only streams compressed with Flate alone (one layer or several) can inflate
    by a factor of a thousand per layer. Single-layer images are left out: a
    reader takes only width x height samples from them, however much the stream
    holds. Attached files count: an order that keeps them opens each one to
    search and scrub it.
    """
    total, total_limit = 0, max(MAX_STREAMS_BYTES, MAX_RATIO * file_size)
    for obj in _streams(pdf):
        layers = _flate_layers(obj)
        if not layers:
            continue
        if layers == 1 and obj.get(_SUBTYPE) == _IMAGE:
            continue
        try:
            raw = obj.read_raw_bytes()
        except pikepdf.PdfError:  # a damaged stream: readers skip it as well
            continue
        limit = max(MAX_STREAM_BYTES, MAX_RATIO * len(raw))
        size = _inflated_size(raw, layers, limit + 1)
        total += size
        if size > limit:
            raise UnsupportedDocument(
                f"object {obj.objgen[0]} of the PDF is a {len(raw)}-byte stream that "
                f"inflates to more than {_mib(limit)} MiB; decompression bombs are not "
                "processed"
            )
        if total > total_limit:
            raise UnsupportedDocument(
                "the compressed streams of the PDF inflate to more than "
                f"{_mib(total_limit)} MiB together; decompression bombs are not "
                "processed"
            )


def _streams(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Stream]:
    """The streams of `pdf`. Only objects stored on their own in the file can be
    streams (ISO 32000, 7.5.7: an object stream holds no stream), so those kept
    in object streams, most objects of a large file, are never read here
    (walking every object cost 50 to 160 ms on a 1,158-page manual)."""
    for (number, generation), entry in pdf.get_xref_table().items():
        if entry.type != 1:  # 0: free; 2: in an object stream
            continue
        obj = pdf.get_object(number, generation)
        if isinstance(obj, pikepdf.Stream):
            yield obj


def _flate_layers(stream: pikepdf.Stream) -> int:
    """How many Flate filters `stream` has; 0 when it has any other filter (those
    either cannot inflate a thousandfold or are images drawn at their size)."""
    filters = stream.get(_FILTER)
    if isinstance(filters, pikepdf.Name):
        names = [str(filters)]
    elif isinstance(filters, pikepdf.Array):
        names = [str(f) for f in filters]
    else:
        return 0
    return len(names) if names and all(name in _FLATE for name in names) else 0


def _inflated_size(raw: bytes, layers: int, limit: int) -> int:
    """Bytes that `layers` Flate decodings of `raw` yield, counted up to `limit`
    without ever holding more than a few MiB."""
    pieces: Iterable[bytes] = (raw,)
    for _ in range(layers):
        pieces = _inflate(pieces)
    size = 0
    for piece in pieces:
        size += len(piece)
        if size >= limit:
            break
    return size


def _inflate(pieces: Iterable[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    for piece in pieces:
        while piece:
            try:
                out = inflater.decompress(piece, _INFLATE_STEP)
            except zlib.error:
                return  # corrupt data ends the stream for readers too
            yield out
            piece = inflater.unconsumed_tail
        if inflater.eof:
            return


def _check_with_qpdf(path: str, count: int) -> None:
    """One qpdf pass: no decompression bombs, and qpdf (which orders copy pages
    with) must find the pages the layout shows."""
    try:
        with pikepdf.open(path, inherit_page_attributes=False) as pdf:
            found = len(pdf.pages)
            if found == count:
                _check_streams(pdf, os.path.getsize(path))
    except (pikepdf.PdfError, pikepdf.PasswordError) as exc:
        detail = str(exc).replace(path, "the file")
        raise UnsupportedDocument(
            f"the PDF is too damaged to be processed ({detail}); "
            "repair it or save it again as PDF, then upload it"
        ) from exc
    if found != count:
        raise UnsupportedDocument(
            f"the PDF is damaged: its page tree reads as {_pages(count)} in one "
            f"PDF library and {_pages(found)} in another; repair it or save it "
            "again as PDF, then upload it"
        )


def _pages(count: int) -> str:
    return f"{count} page" if count == 1 else f"{count} pages"


def _mib(size: int) -> int:
    return size // (1024 * 1024)


def _trunc(value: float) -> int:
    # 841.89 → 841, but 791.9999999 (float noise) → 792.
    return math.floor(value + 1e-6)


IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff"})


def image_to_pdf(path: str, dest: str, max_pages: int | None = None) -> None:
    """Write at `dest` a PDF rendition of an image file: one page per frame (TIFF),
    each page the size of its frame at the image's resolution (72 dpi if unset)."""
    try:
        with pymupdf.open(path) as image:
            if max_pages is not None and image.page_count > max_pages:
                raise UnsupportedDocument(
                    f"the image has {image.page_count} frames; the limit is {max_pages}"
                )
            data = image.convert_to_pdf()
    except UnsupportedDocument:
        raise
    except Exception as exc:  # MuPDF's image decoders raise plain errors
        raise UnsupportedDocument(f"the image cannot be read ({exc})") from exc
    with open(dest, "wb") as out:
        out.write(data)
