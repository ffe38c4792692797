"""The table of operations: wire name → phase, parser, engine functions, texts.

A new operation is one module (a frozen spec, a `parse(Fields)` and an engine
function) and one entry here. An engine function takes the open document (a
PyMuPDF `Document` for `mupdf`, a pikepdf `Pdf` for `qpdf`), the spec, the
run's state and the operation's path (for errors), and changes the document in
place; the runner opens and writes the file once for all of them.

Phases fix the order in which operations run, whatever order the client
listed them in (operations of one phase keep the client's order):

- CONTENT (fill, flatten): form values become page content first, so whatever
  redacts or draws afterwards treats them as content.
- DRAW (stamp, page numbers, Bates): drawn before redaction is applied and
  verified, so the verifier reads what they drew. Positions refer to the
  pages as they will finally be displayed (after rotate and crop).
- PAGES (rotate, crop): after redaction, whose areas are placed on the pages
  as assembled; they draw nothing.
- OUTLINE, then SANITIZE, then METADATA (what the client sets survives the
  sanitizer), then WRITE (optimize) and PROTECT (encrypt): last, on the file
  as it is written.

MuPDF halves run first (phases CONTENT to OUTLINE, and optimize's image
half), then qpdf halves (SANITIZE onwards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import pikepdf
import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.ops import (
    forms,
    metadata,
    numbering,
    optimize,
    outline,
    pages,
    protect,
    sanitize,
    stamp,
)
from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import Op, RunState

MAX_OPERATIONS = 50


class Phase(IntEnum):
    CONTENT = 10
    DRAW = 20
    PAGES = 30
    OUTLINE = 40
    SANITIZE = 50
    METADATA = 55
    WRITE = 60
    PROTECT = 70


# Phases below this one run before the order's redaction is applied.
REDACTION = Phase.PAGES

MupdfStep = Callable[[pymupdf.Document, Any, RunState, str], None]
QpdfStep = Callable[[pikepdf.Pdf, Any, RunState, str], None]


def _none(spec: Any) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Operation:
    """One entry: `texts` lists every text the operation writes into the output
    (drawn, or as metadata or bookmarks), for the service to check against
    redacted words; `once`: at most one per output."""

    name: str
    phase: Phase
    spec: type
    parse: Callable[[Fields], Any]
    mupdf: MupdfStep | None = None
    qpdf: QpdfStep | None = None
    texts: Callable[[Any], tuple[str, ...]] = _none
    once: bool = False


OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "fillForm",
            Phase.CONTENT,
            forms.FillSpec,
            forms.parse_fill,
            mupdf=forms.fill,
            texts=forms.fill_texts,
        ),
        Operation(
            "flatten",
            Phase.CONTENT,
            forms.FlattenSpec,
            forms.parse_flatten,
            forms.flatten,
        ),
        Operation(
            "stamp",
            Phase.DRAW,
            stamp.StampSpec,
            stamp.parse,
            mupdf=stamp.apply,
            texts=stamp.texts,
        ),
        Operation(
            "pageNumbers",
            Phase.DRAW,
            numbering.NumberingSpec,
            numbering.parse_page_numbers,
            mupdf=numbering.apply_page_numbers,
            texts=numbering.texts,
            once=True,
        ),
        Operation(
            "bates",
            Phase.DRAW,
            numbering.NumberingSpec,
            numbering.parse_bates,
            mupdf=numbering.apply_bates,
            texts=numbering.texts,
            once=True,
        ),
        Operation(
            "rotate", Phase.PAGES, pages.RotateSpec, pages.parse_rotate, pages.rotate
        ),
        Operation("crop", Phase.PAGES, pages.CropSpec, pages.parse_crop, pages.crop),
        Operation(
            "outline",
            Phase.OUTLINE,
            outline.OutlineSpec,
            outline.parse,
            mupdf=outline.apply,
            texts=outline.texts,
            once=True,
        ),
        Operation(
            "sanitize",
            Phase.SANITIZE,
            sanitize.SanitizeSpec,
            sanitize.parse,
            qpdf=sanitize.apply,
            once=True,
        ),
        Operation(
            "metadata",
            Phase.METADATA,
            metadata.MetadataSpec,
            metadata.parse,
            qpdf=metadata.apply,
            texts=metadata.texts,
        ),
        Operation(
            "optimize",
            Phase.WRITE,
            optimize.OptimizeSpec,
            optimize.parse,
            mupdf=optimize.images,
            qpdf=optimize.apply,
            once=True,
        ),
        Operation(
            "encrypt",
            Phase.PROTECT,
            protect.EncryptSpec,
            protect.parse,
            qpdf=protect.apply,
            once=True,
        ),
    )
}


def parse_operations(data: object, path: str = "operations") -> tuple[Op, ...]:
    """The client's list of operations (decoded JSON) as typed operations, in
    the client's order. Raises InvalidOperation naming the field."""
    if not isinstance(data, list):
        raise InvalidOperation(path, "must be a list of operations")
    if len(data) > MAX_OPERATIONS:
        raise InvalidOperation(path, f"must have at most {MAX_OPERATIONS} operations")
    parsed = []
    for n, item in enumerate(data):
        fields = Fields(item, f"{path}[{n}]")
        name = fields.raw("type")
        entry = OPERATIONS.get(name) if isinstance(name, str) else None
        if entry is None:
            raise fields.fail("type", f"must be one of {', '.join(OPERATIONS)}")
        spec = entry.parse(fields)
        fields.finish()
        parsed.append(Op(entry.name, spec, fields.path))
    return plan(parsed)


def plan(ops: Iterable[Op]) -> tuple[Op, ...]:
    """`ops` (an order's and an output's together) in the order they run, by
    phase; an operation that may appear once and appears twice is refused."""
    ordered = sorted(ops, key=lambda op: OPERATIONS[op.name].phase)
    seen: set[str] = set()
    for op in ordered:
        if OPERATIONS[op.name].once and op.name in seen:
            raise InvalidOperation(f"{op.path}.type", f"{op.name} may be given once")
        seen.add(op.name)
    return tuple(ordered)


def stamp_texts(op: Op | Any) -> tuple[str, ...]:
    """Every text an operation (or a bare spec) writes into the output: drawn
    text, prefixes and suffixes of numbers, form values, bookmark titles,
    metadata. Pure: the service checks them against the order's redacted
    words before anything runs."""
    spec = op.spec if isinstance(op, Op) else op
    for entry in OPERATIONS.values():
        if isinstance(spec, entry.spec):
            return entry.texts(spec)
    raise TypeError(f"not an operation spec: {type(spec).__name__}")


def phase_of(op: Op) -> Phase:
    return OPERATIONS[op.name].phase


def split(ops: Sequence[Op]) -> tuple[tuple[Op, ...], tuple[Op, ...]]:
    """The operations that run before the redaction and those that run after."""
    return (
        tuple(op for op in ops if phase_of(op) < REDACTION),
        tuple(op for op in ops if phase_of(op) >= REDACTION),
    )
