"""Optimize: smaller images, one copy of repeated resources, object streams,
linearization ("fast web view").

Images are downsampled by MuPDF (it knows the size each image is drawn at);
the rest is done by qpdf while the output is written, as the last step.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pikepdf
import pymupdf
from pikepdf import Array, Dictionary, Name, Stream

from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState

# As Ghostscript's presets: an image is downsampled when its resolution on the
# page exceeds the target by half.
THRESHOLD = 1.5
_SKIPPED_TYPES = frozenset({"/XRef", "/ObjStm", "/Metadata"})
_LENGTH = Name("/Length")


@dataclass(frozen=True, slots=True)
class OptimizeSpec:
    """`image_dpi`: images drawn at more than 1.5 times this resolution are
    resampled to it and stored as JPEG at `jpeg_quality` (None: images are left
    alone; 1-bit images always are). `merge_duplicates`: streams with the same
    bytes and dictionary (fonts, images, forms) are kept once."""

    image_dpi: int | None = None
    jpeg_quality: int = 75
    object_streams: bool = True
    merge_duplicates: bool = True
    linearize: bool = False


def parse(f: Fields) -> OptimizeSpec:
    return OptimizeSpec(
        image_dpi=f.optional_integer("imageDpi", low=36, high=1200),
        jpeg_quality=f.integer("jpegQuality", 75, low=10, high=100),
        object_streams=f.boolean("objectStreams", True),
        merge_duplicates=f.boolean("mergeDuplicates", True),
        linearize=f.boolean("linearize", False),
    )


def images(
    doc: pymupdf.Document, spec: OptimizeSpec, state: RunState, path: str
) -> None:
    """The MuPDF half: resample images above the threshold."""
    if spec.image_dpi is None:
        return
    options = pymupdf.mupdf.PdfImageRewriterOptions()
    threshold = round(spec.image_dpi * THRESHOLD)
    for kind in ("color_lossless", "color_lossy", "gray_lossless", "gray_lossy"):
        # Bicubic reaches the target; MuPDF's "average" halves the size
        # until it is below twice the target (a 540 dpi photo stays at 270).
        setattr(
            options,
            f"{kind}_image_subsample_method",
            pymupdf.mupdf.FZ_SUBSAMPLE_BICUBIC,
        )
        setattr(options, f"{kind}_image_subsample_threshold", threshold)
        setattr(options, f"{kind}_image_subsample_to", spec.image_dpi)
        setattr(
            options, f"{kind}_image_recompress_method", pymupdf.mupdf.FZ_RECOMPRESS_JPEG
        )
        setattr(options, f"{kind}_image_recompress_quality", str(spec.jpeg_quality))
    # An image is replaced only when the new one is smaller (a flat diagram
    # compresses better losslessly than as a resampled JPEG).
    options.recompress_when = pymupdf.mupdf.FZ_RECOMPRESS_WHEN_SMALLER
    pymupdf.mupdf.pdf_rewrite_images(pymupdf.mupdf.pdf_specifics(doc.this), options)


def apply(pdf: pikepdf.Pdf, spec: OptimizeSpec, state: RunState, path: str) -> None:
    """The qpdf half: merge duplicates now, the rest when the file is saved."""
    if spec.merge_duplicates:
        state.count("duplicates", merge_duplicates(pdf))
    state.save.object_streams = spec.object_streams
    state.save.linearize = spec.linearize


def merge_duplicates(pdf: pikepdf.Pdf) -> int:
    """Point every reference to a stream at the first stream with the same raw
    bytes and dictionary; returns how many copies became unreferenced (qpdf
    does not write them)."""
    first: dict[tuple[bytes, bytes], Stream] = {}
    copies: dict[tuple[int, int], Stream] = {}
    for obj in pdf.objects:
        if not isinstance(obj, Stream) or str(obj.get("/Type", "")) in _SKIPPED_TYPES:
            continue
        try:
            raw = obj.read_raw_bytes()
        except pikepdf.PdfError:
            continue
        key = (hashlib.blake2b(raw, digest_size=20).digest(), _dictionary_key(obj))
        kept = first.setdefault(key, obj)
        if kept.objgen != obj.objgen:
            copies[obj.objgen] = kept
    if copies:
        for obj in pdf.objects:
            if isinstance(obj, Dictionary | Stream | Array):
                _repoint(obj, copies)
    return len(copies)


def _dictionary_key(stream: Stream) -> bytes:
    return b" ".join(
        key.encode() + b"=" + _unparse(value)
        for key, value in sorted(stream.stream_dict.items())
        if key != _LENGTH
    )


def _repoint(
    container: Dictionary | Stream | Array, copies: dict[tuple[int, int], Stream]
) -> None:
    """Replace references to copies, looking into direct dictionaries and
    arrays (a page's /Resources is often one)."""
    pending: list[Dictionary | Stream | Array] = [container]
    while pending:
        current = pending.pop()
        items = (
            list(enumerate(current))
            if isinstance(current, Array)
            else list(current.items())
        )
        for key, value in items:
            if not isinstance(value, pikepdf.Object):
                continue  # numbers and booleans come as Python values
            if value.is_indirect:
                kept = copies.get(value.objgen)
                if kept is not None:
                    current[key] = kept
            elif isinstance(value, Dictionary | Array):
                pending.append(value)


def _unparse(value: object) -> bytes:
    if isinstance(value, pikepdf.Object):
        return bytes(value.unparse())
    return repr(value).encode()  # numbers and booleans come as Python values
