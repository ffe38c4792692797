"""From an order's spec to the PDF engine's calls (no Django, no state)."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.annotate import Mode, apply_annotations
from engines.pdf.assemble import assemble
from engines.pdf.failures import engine_failures
from engines.pdf.fdf import export_fdf
from engines.pdf.ops import (
    NumberRange,
    Op,
    OpsContext,
    OpsReport,
    SourceMark,
    apply_operations,
    stamp_texts,
)
from engines.pdf.pack import zip_entries
from engines.pdf.redact import Removed
from engines.pdf.types import (
    Annotation,
    Box,
    PageOrigin,
    Placement,
    RedactionEvidence,
    SourceElement,
)
from orders.specs import REDACTION_KINDS

AnnotationIndex = dict[tuple[str, int], list[Annotation]]


@dataclass(frozen=True)
class Built:
    """What building an output gave: its pages, whether its redactions were
    read back and found gone (None when it redacts nothing; a survivor raises),
    and what its operations did."""

    pages: int
    redaction_verified: bool | None = None
    operations: OpsReport | None = None
    # The evidence of each redacted PDF it is made of: (zip entry or None, it).
    evidence: tuple[tuple[int | None, RedactionEvidence], ...] = ()


@dataclass(frozen=True)
class Operations:
    """The operations of one output and what they need from the order: the
    number its Bates sequence continues from (None for the first output) and
    the files of stamp images by document id."""

    ops: tuple[Op, ...] = ()
    bates_next: int | None = None
    images: Mapping[str, str] = field(default_factory=dict)
    # A redacted output keeps its attached files, each scrubbed and verified
    # (else they are dropped with everything the redaction cannot vouch for).
    keep_attachments: bool = False
    # Words that rules found outside any area (form values, annotation texts,
    # metadata), by source document: scrubbed and verified like removed ones.
    scrub: Mapping[str, tuple[Removed, ...]] = field(default_factory=dict)
    # The keyed hash the evidence gives removed text as (never the text).
    hash_text: Callable[[str], str] | None = None


def _page_count(element: SourceElement) -> int:
    """Pages `element` puts in the output."""
    if element.ranges is not None:
        return sum(r.last - r.first + 1 for r in element.ranges)
    with pymupdf.open(element.path) as source:
        return int(source.page_count)


def _context(
    operations: Operations,
    elements: Sequence[SourceElement],
    placements: Sequence[Placement],
) -> OpsContext:
    """What the operations need to know of this output: where it redacts (so no
    number is drawn there), where each source starts (an outline of them)."""
    areas: dict[int, list[Box]] = defaultdict(list)
    for placement in placements:
        if placement.annotation.kind in REDACTION_KINDS:
            annotation = placement.annotation
            boxes = annotation.coords or (
                (annotation.position,) if annotation.position else ()
            )
            areas[placement.page].extend(boxes)
    starts: list[SourceMark] = []
    page = 0
    for element in elements:
        starts.append(SourceMark(element.title or element.key, page))
        page += _page_count(element)
    return OpsContext(
        redaction_areas=dict(areas),
        bates_next=operations.bates_next,
        sources=starts,
        images=operations.images,
    )


def verified_of(built: Sequence[Built]) -> bool | None:
    """Outputs together: verified when any redacts (every one that does was
    verified, or its build would have raised), None when none redacts."""
    flags = [b.redaction_verified for b in built if b.redaction_verified is not None]
    return all(flags) if flags else None


def annotations_of(annotations: Sequence[Annotation]) -> AnnotationIndex:
    """The order's annotations grouped by (source document id, 0-based source page)."""
    index: AnnotationIndex = defaultdict(list)
    for annotation in annotations:
        index[(annotation.document_key, annotation.page)].append(annotation)
    return index


def placements_for(
    origins: Sequence[PageOrigin], index: AnnotationIndex
) -> list[Placement]:
    """Annotations follow their source page: once per copy, none for unselected pages."""
    return [
        Placement(page=n, annotation=a)
        for n, origin in enumerate(origins)
        for a in index.get((origin.key, origin.page), ())
    ]


def _tmp_beside(dest: Path, stack: ExitStack, suffix: str) -> Path:
    path = dest.with_name(dest.name + suffix)
    stack.callback(lambda: path.unlink(missing_ok=True))
    return path


def build_pdf(
    elements: Sequence[SourceElement],
    index: AnnotationIndex,
    dest: Path,
    mode: Mode,
    stack: ExitStack,
    operations: Operations | None = None,
) -> Built:
    """Assemble `elements` into `dest` with their annotations and operations.

    Operations that draw (stamps, numbers, filled forms) run before the
    redaction is applied, so that its verification reads what they drew; the
    others (rotate, crop, outline, sanitize, metadata, optimize, encrypt) after.
    A stamp that draws a word the redaction removed fails the output."""
    operations = operations or Operations()
    assembled = _tmp_beside(dest, stack, ".assembled")
    origins = assemble(
        elements, str(assembled), keep_attachments=operations.keep_attachments
    )
    placements = placements_for(origins, index)
    scrub = tuple(
        run for key in dict.fromkeys(e.key for e in elements)
        for run in operations.scrub.get(key, ())
    )  # fmt: skip
    if not placements and not scrub and not operations.ops:
        os.replace(assembled, dest)
        return Built(len(origins))
    if not placements and not scrub:
        context = _context(operations, elements, placements)
        done = apply_operations(str(assembled), str(dest), operations.ops, context)
        return Built(len(origins), operations=done)
    context = _context(operations, elements, placements)
    drawn = _tmp_beside(dest, stack, ".drawn")
    annotated = _tmp_beside(dest, stack, ".annotated")
    before = apply_operations(
        str(assembled), str(drawn), operations.ops, context, stage="before_redaction"
    )
    with engine_failures("the annotations could not be applied to the document"):
        report = apply_annotations(
            str(drawn),
            str(annotated),
            placements,
            mode=mode,
            keep_attachments=operations.keep_attachments,
            scrub=scrub,
            hash_text=operations.hash_text,
        )
    _refuse_drawn_secrets(operations.ops, report.removed_words)
    after = apply_operations(
        str(annotated), str(dest), operations.ops, context, stage="after_redaction"
    )
    evidence = ((None, report.evidence),) if report.evidence is not None else ()
    return Built(
        len(origins), report.redaction_verified, _merged(before, after), evidence
    )


def _refuse_drawn_secrets(ops: Sequence[Op], removed: Sequence[str]) -> None:
    """An operation may not write a word the order redacts (it would undo the
    redaction, or fail its verification)."""
    secrets = {word.casefold() for word in removed if word.strip()}
    for op in ops:
        written = " ".join(stamp_texts(op)).casefold()
        if any(secret in written for secret in secrets):
            raise InvalidOperation(
                op.path, "writes a word that the order redacts; leave it out"
            )


def _merged(before: OpsReport, after: OpsReport) -> OpsReport:
    return OpsReport(
        ran=before.ran + after.ran,
        bates=before.bates or after.bates,
        page_numbers=before.page_numbers or after.page_numbers,
        moved=before.moved + after.moved,
        not_drawn=before.not_drawn + after.not_drawn,
        removed={**before.removed, **after.removed},
        filled=before.filled + after.filled,
    )


def build_output(
    fmt: str,
    elements: Sequence[SourceElement],
    index: AnnotationIndex,
    dest: Path,
    stack: ExitStack,
    operations: Operations | None = None,
) -> Built:
    """One output of an order (a transformationDetails entry). In a zip each
    entry gets the operations, a Bates sequence running on across entries."""
    if fmt == "zip":
        parts: list[Built] = []
        entries = []
        chained = operations or Operations()
        for n, element in enumerate(elements):
            part = _tmp_beside(dest, stack, f".{n}.pdf")
            built = build_pdf([element], index, part, "burn", stack, chained)
            parts.append(built)
            chained = replace(chained, bates_next=_next_bates(built, chained))
            entries.append((element.title, str(part)))
        zip_entries(entries, str(dest))
        return Built(
            sum(p.pages for p in parts),
            verified_of(parts),
            _zip_report(parts),
            tuple((n, ev) for n, p in enumerate(parts) for _, ev in p.evidence),
        )
    return build_pdf(
        elements,
        index,
        dest,
        "live" if fmt == "pdf-fdf" else "burn",
        stack,
        operations,
    )


def _next_bates(built: Built, operations: Operations) -> int | None:
    """Where the Bates sequence goes on after `built`."""
    if built.operations is not None and built.operations.bates is not None:
        return built.operations.bates.last + 1
    return operations.bates_next


def _zip_report(parts: Sequence[Built]) -> OpsReport | None:
    reports = [p.operations for p in parts if p.operations is not None]
    if not reports:
        return None
    bates = [r.bates for r in reports if r.bates is not None]
    numbers = [r.page_numbers for r in reports if r.page_numbers is not None]
    return OpsReport(
        ran=reports[0].ran,
        bates=NumberRange(bates[0].first, bates[-1].last) if bates else None,
        page_numbers=(
            NumberRange(numbers[0].first, numbers[-1].last) if numbers else None
        ),
    )


def zip_outputs(
    outputs: Sequence[tuple[str | None, Path]], dest: Path, fmt: str
) -> None:
    """The container of a multi-output order: a zip of every output."""
    extension = ".zip" if fmt == "zip" else ".pdf"
    zip_entries(
        [(title, str(path)) for title, path in outputs], str(dest), extension=extension
    )


def fdf_of(pdf_path: Path) -> bytes:
    return export_fdf(str(pdf_path))
