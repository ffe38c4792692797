"""From an order's spec to the PDF engine's calls (no Django, no state)."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from documents.pdf.annotate import Mode, apply_annotations
from documents.pdf.assemble import assemble
from documents.pdf.failures import engine_failures
from documents.pdf.fdf import export_fdf
from documents.pdf.pack import zip_entries
from documents.pdf.types import Annotation, PageOrigin, Placement, SourceElement

AnnotationIndex = dict[tuple[str, int], list[Annotation]]


@dataclass(frozen=True)
class Built:
    """What building an output gave: its pages, and whether its redactions were
    read back and found gone (None when it redacts nothing; a survivor raises)."""

    pages: int
    redaction_verified: bool | None = None


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
) -> Built:
    """Assemble `elements` into `dest` with their annotations."""
    assembled = _tmp_beside(dest, stack, ".assembled")
    origins = assemble(elements, str(assembled))
    placements = placements_for(origins, index)
    if not placements:
        os.replace(assembled, dest)
        return Built(len(origins))
    with engine_failures("the annotations could not be applied to the document"):
        report = apply_annotations(str(assembled), str(dest), placements, mode=mode)
    return Built(len(origins), report.redaction_verified)


def build_output(
    fmt: str,
    elements: Sequence[SourceElement],
    index: AnnotationIndex,
    dest: Path,
    stack: ExitStack,
) -> Built:
    """One output of an order (a transformationDetails entry)."""
    if fmt == "zip":
        parts = []
        entries = []
        for n, element in enumerate(elements):
            part = _tmp_beside(dest, stack, f".{n}.pdf")
            parts.append(build_pdf([element], index, part, "burn", stack))
            entries.append((element.title, str(part)))
        zip_entries(entries, str(dest))
        return Built(sum(p.pages for p in parts), verified_of(parts))
    return build_pdf(
        elements, index, dest, "live" if fmt == "pdf-fdf" else "burn", stack
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
