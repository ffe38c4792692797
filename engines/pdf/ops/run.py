"""`apply_operations`: a PDF written with a list of operations applied, the file
opened and written once (MuPDF), plus once more by qpdf when an operation of
the last phases needs it.

An order that redacts runs its operations in two stages around the redaction
(`stage="before_redaction"`, then the redaction and its verification, then
`stage="after_redaction"`, each given the whole list); an order that does not
runs them at once (`stage="all"`). Pages count from 0 in the report.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Literal

import pikepdf
import pymupdf

from engines.errors import EngineError
from engines.pdf import geometry
from engines.pdf.failures import engine_failures
from engines.pdf.layout import open_pdf
from engines.pdf.ops.state import Op, OpsContext, OpsReport, RunState
from engines.pdf.ops.table import OPERATIONS, REDACTION, Phase, phase_of, plan

Stage = Literal["all", "before_redaction", "after_redaction"]


def apply_operations(
    src: str,
    dest: str,
    operations: Sequence[Op],
    context: OpsContext | None = None,
    *,
    stage: Stage = "all",
) -> OpsReport:
    """Write `src` with `operations` applied to `dest` (a full rewrite).

    "before_redaction" runs the phases before PAGES (fill, flatten, stamp,
    numbers), placing what they draw on the pages as the later rotate and crop
    operations of the list will leave them; "after_redaction" runs the rest.
    Raises InvalidOperation for an operation that cannot be done on this
    document (naming its field) and EngineError when the file cannot be read or
    written.
    """
    state = RunState(context or OpsContext())
    ordered = plan(operations)
    chosen = [op for op in ordered if _in_stage(op, stage)]
    mupdf_ops = [op for op in chosen if OPERATIONS[op.name].mupdf]
    qpdf_ops = [op for op in chosen if OPERATIONS[op.name].qpdf]
    if not chosen:
        shutil.copyfile(src, dest)
        return state.report()
    written = src
    if mupdf_ops:
        written = dest + ".mupdf" if qpdf_ops else dest
        geometry_ops = [op for op in ordered if phase_of(op) == Phase.PAGES]
        _run_mupdf(src, written, mupdf_ops, geometry_ops, state, stage)
    if qpdf_ops:
        try:
            _run_qpdf(written, dest, qpdf_ops, state)
        finally:
            if written != src:
                os.unlink(written)
    state.ran[:] = [op.name for op in chosen]
    return state.report()


def _in_stage(op: Op, stage: Stage) -> bool:
    if stage == "all":
        return True
    before = phase_of(op) < REDACTION
    return before if stage == "before_redaction" else not before


def _run_mupdf(
    src: str,
    dest: str,
    ops: Sequence[Op],
    geometry_ops: Sequence[Op],
    state: RunState,
    stage: Stage,
) -> None:
    with open_pdf(src) as doc, engine_failures("the operations could not be applied"):
        _place_areas(doc, state)
        drawing = [op for op in ops if phase_of(op) == Phase.DRAW]
        drawn = False
        for op in ops:
            phase = phase_of(op)
            if phase == Phase.DRAW:
                if not drawn:
                    with _final_geometry(doc, geometry_ops, state, keep=stage == "all"):
                        for draw in drawing:
                            _mupdf_step(doc, draw, state)
                    drawn = True
            elif not (phase == Phase.PAGES and drawing and stage == "all"):
                # (in one stage, rotate and crop were applied for the drawing)
                _mupdf_step(doc, op, state)
        _save_mupdf(doc, dest)


def _mupdf_step(doc: pymupdf.Document, op: Op, state: RunState) -> None:
    step = OPERATIONS[op.name].mupdf
    assert step is not None
    step(doc, op.spec, state, op.path)


def _place_areas(doc: pymupdf.Document, state: RunState) -> None:
    """Redaction areas (displayed space of the pages as assembled) → PDF user
    space, where rotate and crop do not move them."""
    for number, boxes in state.context.redaction_areas.items():
        if not 0 <= number < doc.page_count:
            continue
        page = doc[number]
        state.areas[number] = [
            tuple(rect) for rect in geometry.display_to_pdf_rects(page, boxes)
        ]


@contextmanager
def _final_geometry(
    doc: pymupdf.Document, geometry_ops: Sequence[Op], state: RunState, *, keep: bool
) -> Iterator[None]:
    """Apply rotate and crop for the drawing that follows; unless `keep`, put
    each page's own /Rotate and /CropBox back afterwards (they are applied for
    real after the redaction, whose areas refer to the pages as assembled)."""
    if not geometry_ops:
        yield
        return
    saved = [
        (
            page.xref,
            doc.xref_get_key(page.xref, "Rotate"),
            doc.xref_get_key(page.xref, "CropBox"),
        )
        for page in doc
    ]
    for op in geometry_ops:
        _mupdf_step(doc, op, state)
    try:
        yield
    finally:
        if not keep:
            for xref, rotate, crop in saved:
                doc.xref_set_key(
                    xref, "Rotate", rotate[1] if rotate[0] != "null" else "null"
                )
                doc.xref_set_key(
                    xref, "CropBox", crop[1] if crop[0] != "null" else "null"
                )


def _save_mupdf(doc: pymupdf.Document, dest: str) -> None:
    try:
        # garbage=1 drops what the operations replaced; merging duplicates is
        # optimize's (MuPDF's own took 15 s on a 1,158-page manual).
        doc.save(dest, garbage=1, deflate=True)
    except (RuntimeError, ValueError) as exc:
        if os.path.exists(dest):
            os.unlink(dest)
        raise EngineError(f"the document cannot be written: {exc}") from exc


def _run_qpdf(src: str, dest: str, ops: Sequence[Op], state: RunState) -> None:
    try:
        with pikepdf.open(src) as pdf:
            for op in ops:
                step = OPERATIONS[op.name].qpdf
                assert step is not None
                step(pdf, op.spec, state, op.path)
            options = state.save
            pdf.save(
                dest,
                object_stream_mode=(
                    pikepdf.ObjectStreamMode.generate
                    if options.object_streams
                    else pikepdf.ObjectStreamMode.preserve
                ),
                linearize=options.linearize,
                encryption=options.encryption or False,
            )
    except pikepdf.PdfError as exc:
        raise EngineError(f"the document cannot be written: {exc}") from exc
