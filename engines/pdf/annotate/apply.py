"""`apply_annotations`: a PDF written with its order's annotations applied.

Output pages are counted from 0; positions are in displayed-page space.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pikepdf
import pymupdf

from engines import verify
from engines.errors import EngineError, RedactionLeak
from engines.pdf import redact
from engines.pdf.annotate.drawers import Mode
from engines.pdf.annotate.kinds import drawer
from engines.pdf.annotate.names import is_redaction, kind_name
from engines.pdf.annotate.overlay import draw_overlays, refuse_removed_words
from engines.pdf.redact.nested import scrub_attached_pdf
from engines.pdf.types import (
    Annotation,
    AnnotationReport,
    AreaEvidence,
    Box,
    Placement,
    RedactionEvidence,
    Rgb,
    ScrubCounts,
    VerificationEvidence,
)

Overlay = tuple[Box, str, Rgb | None]


def apply_annotations(
    src: str,
    dest: str,
    placements: Sequence[Placement],
    *,
    mode: Mode,
    keep_attachments: bool = False,
    scrub: Sequence[redact.Removed] = (),
    hash_text: Callable[[str], str] | None = None,
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

    With redactions, the written file is rebuilt from what a redacted output
    may keep, every other copy of the removed text scrubbed (`redact.sweep`:
    attachments, scripts, XMP and unknown entries are dropped; with
    `keep_attachments`, attached files are kept, opened and scrubbed), and read
    back by readers that share nothing with the redaction (`engines.verify`)
    before this returns. Without redactions, `keep_attachments` changes nothing.
    `scrub`: words found elsewhere than under an area (a form value, an
    annotation's text, the metadata) that go like removed ones, areas or not.
    A redaction's `overlay_text` is drawn inside its boxes as outlines; one
    that holds a removed word raises (EngineError, code invalid_operation).

    Returns what was redacted (see `AnnotationReport`), with its evidence:
    per area what went (the removed text hashed by `hash_text`, never kept),
    copies scrubbed, what the check read. Raises RedactionLeak
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
    checked: dict[int, list[verify.Area]] = {}
    found: list[AreaEvidence] = []
    overlays: dict[int, list[Overlay]] = {}
    try:
        for number, annotations in _by_page(doc, placements).items():
            page = doc[number]
            owned = [
                (area, a) for a in annotations if is_redaction(a) for area in _areas(a)
            ]
            areas = [area for area, _ in owned]
            if areas:
                checked[number] = [_checked(box, colour) for box, colour in areas]
                redacted[number] = redact.redact_page(page, areas)
                removed += redacted[number].removed
                found += _evidence(number, owned, redacted[number], hash_text)
                overlays[number] = [
                    (box, a.overlay_text, colour)
                    for (box, colour), a in owned
                    if a.overlay_text
                ]
            for annotation in annotations:
                if not is_redaction(annotation):
                    drawer(annotation)(page, annotation, mode)
        removed += scrub
        refuse_removed_words(
            [text for drawn in overlays.values() for _, text, _ in drawn],
            redact.merged(removed),
        )
        for number, drawn in overlays.items():
            draw_overlays(doc[number], drawn)
        rewritten = redact.scrub_document(doc, removed) if removed or redacted else 0
        if mode == "burn":
            _burn(doc)
        if not redacted and not removed:
            _save(doc, dest)
            return AnnotationReport()
        written = _written(doc, dest)
    finally:
        doc.close()
    runs = redact.merged(removed)
    swept = _sweep_and_save(written, dest, runs, redacted, keep_attachments)
    try:
        verify.verify(
            dest,
            [verify.Run(r.text, r.starts_word, r.ends_word) for r in runs],
            checked,
        )
    except RedactionLeak:
        os.unlink(dest)  # a leaking output must not be delivered by mistake
        raise
    scrubbed = ScrubCounts(swept.strings + rewritten, swept.names, swept.streams)
    return AnnotationReport(
        removed_words=tuple(run.text for run in runs),
        redaction_verified=True,
        evidence=RedactionEvidence(
            tuple(found), scrubbed, _read_back(dest, checked, len(runs))
        ),
    )


def _evidence(
    page: int,
    owned: Sequence[tuple[tuple[Box, Rgb | None], Annotation]],
    redacted: redact.PageRedaction,
    hash_text: Callable[[str], str] | None,
) -> list[AreaEvidence]:
    """Each area of the page with what it removed (`redact.evidence`)."""
    return [
        AreaEvidence(
            page=page,
            annotation_id=annotation.annotation_id,
            box=box,
            glyphs=count.glyphs,
            images=count.images,
            paths=count.paths,
            annotations=count.annotations,
            fields=count.fields,
            text_hash=hash_text(count.text) if hash_text and count.text else None,
            overlay=bool(annotation.overlay_text),
        )
        for ((box, _), annotation), count in zip(owned, redacted.counts, strict=True)
    ]


def _read_back(
    dest: str, checked: dict[int, list[verify.Area]], runs: int
) -> VerificationEvidence:
    """What the check read of the written output: its pages and areas (PDFium),
    its objects and streams (qpdf), the runs sought; nothing found."""
    with pikepdf.open(dest) as pdf:
        objects = list(pdf.objects)
        pages = len(pdf.pages)
    return VerificationEvidence(
        readers=("pdfium", "qpdf"),
        pages=pages,
        areas=sum(len(areas) for areas in checked.values()),
        objects=len(objects),
        streams=sum(isinstance(o, pikepdf.Stream) for o in objects),
        runs=runs,
    )


def _checked(box: Box, colour: Rgb | None) -> verify.Area:
    """An area as the check reads it: displayed space, its fill colour."""
    fill = colour or Rgb(0, 0, 0)
    return verify.Area(box.x, box.y, box.w, box.h, (fill.r, fill.g, fill.b))


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
    keep_attachments: bool,
) -> ScrubCounts:
    """The written file rebuilt as a redacted output, saved whole (a full
    rewrite, no earlier revision, new file identifiers); MuPDF's file is
    removed. Answers the copies of removed words the sweep rewrote."""
    try:
        with pikepdf.open(written) as pdf:
            counts = redact.sweep(
                pdf,
                runs,
                redacted,
                keep_attachments=keep_attachments,
                scrub_pdf=scrub_attached_pdf,
            )
            pdf.save(dest, deterministic_id=True)
            return counts
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
