"""From an order's spec to the PDF engine's calls (no Django, no state)."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from documents.pdf.annotate import Mode, apply_annotations
from documents.pdf.assemble import assemble
from documents.pdf.failures import engine_failures
from documents.pdf.fdf import export_fdf
from documents.pdf.pack import zip_entries
from documents.pdf.types import Annotation, PageOrigin, Placement, SourceElement

AnnotationIndex = dict[tuple[str, int], list[Annotation]]


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
) -> int:
    """Assemble `elements` into `dest` with their annotations; returns the page count."""
    assembled = _tmp_beside(dest, stack, ".assembled")
    origins = assemble(elements, str(assembled))
    placements = placements_for(origins, index)
    if placements:
        with engine_failures("the annotations could not be applied to the document"):
            apply_annotations(str(assembled), str(dest), placements, mode=mode)
    else:
        os.replace(assembled, dest)
    return len(origins)


def build_output(
    fmt: str,
    elements: Sequence[SourceElement],
    index: AnnotationIndex,
    dest: Path,
    stack: ExitStack,
) -> int:
    """One output of an order (a transformationDetails entry); returns its page count."""
    if fmt == "zip":
        pages = 0
        entries = []
        for n, element in enumerate(elements):
            part = _tmp_beside(dest, stack, f".{n}.pdf")
            pages += build_pdf([element], index, part, "burn", stack)
            entries.append((element.title, str(part)))
        zip_entries(entries, str(dest))
        return pages
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
