"""`apply_annotations`: a PDF written with its order's annotations applied.

Output pages are counted from 0; positions are in displayed-page space.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import pikepdf
import pymupdf

from documents.pdf import redact
from documents.pdf.annotate.drawers import Mode
from documents.pdf.annotate.kinds import drawer
from documents.pdf.annotate.names import is_redaction, kind_name
from documents.pdf.types import (
    Annotation,
    AnnotationReport,
    Box,
    EngineError,
    Placement,
    RedactionLeak,
    Rgb,
)


def apply_annotations(
    src: str, dest: str, placements: Sequence[Placement], *, mode: Mode
) -> AnnotationReport:
    """Write `src` with `placements` applied to `dest`, as a full rewrite.

    `Placement.page` is a 0-based page of `src`. On each page all redactions
    (RedactElemType, RedactTextElemType) are applied first, as true redaction in
    both modes, then the other kinds in the order given.

    mode "burn": every annotation is drawn into the page content; afterwards the
    pages carry no annotation objects but their links (form widgets are kept).
    mode "live": Square, FreeText, Text and Line annotation objects with /NM (the
    annotation id), /T (creator), /Contents, colours, /CA, border, line endings,
    /CreationDate and appearance streams.

    With redactions, the written file is swept of every other copy of the
    removed text (`redact.sweep`) and read back by other readers
    (`redact.verify`) before this returns.

    Returns what was redacted (see `AnnotationReport`). Raises RedactionLeak
    (and writes no `dest`) when the output still holds redacted text, and
    EngineError for an unknown kind, a page out of range, missing or invalid
    fields, or a PDF that cannot be read or written.
    """
    if mode not in ("burn", "live"):
        raise EngineError(f"Unknown annotation mode {mode!r}: use 'burn' or 'live'.")
    for placement in placements:
        if not is_redaction(placement.annotation):
            drawer(placement.annotation)
    doc = _open(src)
    removed: list[redact.Removed] = []
    redacted: dict[int, redact.PageRedaction] = {}
    try:
        for number, annotations in _by_page(doc, placements).items():
            page = doc[number]
            areas = [area for a in annotations if is_redaction(a) for area in _areas(a)]
            if areas:
                redacted[number] = redact.redact_page(page, areas)
                removed += redacted[number].removed
            for annotation in annotations:
                if not is_redaction(annotation):
                    drawer(annotation)(page, annotation, mode)
        if redacted:
            redact.scrub_document(doc, removed)
        if mode == "burn":
            _burn(doc)
        if not redacted:
            _save(doc, dest)
            return AnnotationReport()
        written = _written(doc, dest)
    finally:
        doc.close()
    runs = redact.merged(removed)
    _sweep_and_save(written, dest, runs, redacted)
    try:
        redact.verify(dest, runs, redacted)
    except RedactionLeak:
        os.unlink(dest)  # a leaking output must not be delivered by mistake
        raise
    return AnnotationReport(
        removed_words=tuple(run.text for run in runs), redaction_verified=True
    )


def _written(doc: pymupdf.Document, dest: str) -> str:
    """MuPDF's file, beside `dest`, for the sweep to read and rewrite.

    garbage=1 drops what redaction replaced; merging duplicates (garbage=3)
    took 30 s on a 1,158-page manual and the sweep's full rewrite keeps only
    what is referenced anyway. Written to a file: MuPDF hands PyMuPDF an
    in-memory copy chunk by chunk through Python (1.3 s for that manual).
    """
    path = dest + ".mupdf"
    try:
        doc.save(path, garbage=1, deflate=True)
    except (RuntimeError, ValueError) as exc:
        if os.path.exists(path):
            os.unlink(path)
        raise EngineError(f"The annotated document cannot be written: {exc}") from exc
    return path


def _sweep_and_save(
    written: str,
    dest: str,
    runs: Sequence[redact.Removed],
    redacted: dict[int, redact.PageRedaction],
) -> None:
    """The written file swept of every other copy of the removed text, saved
    whole (a full rewrite, no earlier revision); MuPDF's file is removed."""
    try:
        with pikepdf.open(written) as pdf:
            redact.sweep(pdf, runs, redacted)
            pdf.save(dest)
    except pikepdf.PdfError as exc:
        raise EngineError(f"The redacted document cannot be written: {exc}") from exc
    finally:
        os.unlink(written)


def _open(src: str) -> pymupdf.Document:
    try:
        doc = pymupdf.open(src)
    except (pymupdf.FileDataError, pymupdf.FileNotFoundError, RuntimeError) as exc:
        raise EngineError(f"The document to annotate cannot be read: {exc}") from exc
    if not doc.is_pdf or (doc.needs_pass and not doc.authenticate("")):
        doc.close()
        raise EngineError("The document to annotate is not a readable PDF.")
    return doc


def _save(doc: pymupdf.Document, dest: str) -> None:
    try:
        # garbage=3 drops the objects redaction replaced and merges duplicates.
        doc.save(dest, garbage=3, deflate=True)
    except (RuntimeError, ValueError) as exc:
        raise EngineError(f"The annotated document cannot be written: {exc}") from exc


def _by_page(
    doc: pymupdf.Document, placements: Sequence[Placement]
) -> dict[int, list[Annotation]]:
    pages: dict[int, list[Annotation]] = {}
    for placement in placements:
        if not 0 <= placement.page < doc.page_count:
            raise EngineError(
                f"Annotation page {placement.page} is outside the output document "
                f"(pages 0 to {doc.page_count - 1})."
            )
        pages.setdefault(placement.page, []).append(placement.annotation)
    return dict(sorted(pages.items()))


def _areas(annotation: Annotation) -> list[tuple[Box, Rgb | None]]:
    boxes = list(annotation.coords) or (
        [annotation.position] if annotation.position else []
    )
    if not boxes:
        raise EngineError(
            f"Redaction {annotation.annotation_id or ''} on page {annotation.page} "
            "has neither coords nor position."
        )
    if kind_name(annotation) == "RedactElemType":
        colour = annotation.interior_color or annotation.color
    else:
        colour = annotation.color or annotation.interior_color
    return [(box, colour) for box in boxes]


def _burn(doc: pymupdf.Document) -> None:
    doc.bake(annots=True, widgets=False)
    # Baking drops hidden annotations and popups; anything else it could not
    # turn into content (no appearance to draw) must not survive a burn either.
    for page in doc.pages():
        for annot in list(page.annots()):
            page.delete_annot(annot)
