"""Page numbers and Bates numbers: one number per chosen page, drawn as text.

A number is `prefix + n (zero-padded to digits) + suffix`; `{total}` in the
prefix or suffix stands for the last number this operation gives in the output.
Page numbers start at `start` in every output. Bates numbers are one sequence
across the outputs of an order: the service passes the next free number
(`OpsContext.bates_next`) and reads the last one given from the report.

Redaction areas are kept clear: a number whose box (grown by `CLEARANCE`)
meets an area moves, first inward from its edge by steps of its own height,
then to the other anchors nearest to the asked one, each tried the same way.
When no place on the page is free, the page still takes its number (a Bates
sequence has no gaps) but nothing is drawn; the report lists such pages
(`not_drawn`) and the moved ones (`moved`). Positions are points on the
displayed page (top-left origin); pages count from 0 in the report.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import pymupdf

from engines.pdf import geometry
from engines.pdf.ops import placement, sheets
from engines.pdf.ops.fields import ANCHORS, MAX_EXTENT, Fields
from engines.pdf.ops.state import NumberRange, RunState, selected_pages
from engines.pdf.types import Box, PageRange, Rgb

CLEARANCE = 2.0
STEPS = 4
MAX_AFFIX = 100
_BLACK = Rgb(0, 0, 0)


@dataclass(frozen=True, slots=True)
class NumberingSpec:
    """See the module's docstring; sizes and offsets in points."""

    prefix: str = ""
    suffix: str = ""
    start: int = 1
    digits: int = 0
    position: str = "bottom"
    font: str = "helvetica"
    font_size: float = 10.0
    color: Rgb = _BLACK
    margin: float = 24.0
    offset: tuple[float, float] = (0.0, 0.0)
    pages: tuple[PageRange, ...] | None = None

    def label(self, n: int, total: int) -> str:
        return (
            self.prefix.replace("{total}", str(total))
            + str(n).zfill(self.digits)
            + self.suffix.replace("{total}", str(total))
        )


def _parser(digits: int, position: str):  # type: ignore[no-untyped-def]
    def parse(f: Fields) -> NumberingSpec:
        affixes = {}
        for name in ("prefix", "suffix"):
            value = f.text(name, "") or ""
            if len(value) > MAX_AFFIX or "\n" in value:
                raise f.fail(
                    name, f"must be one line of at most {MAX_AFFIX} characters"
                )
            affixes[name] = value
        return NumberingSpec(
            prefix=affixes["prefix"],
            suffix=affixes["suffix"],
            start=f.integer("start", 1, low=0, high=10**12),
            digits=f.integer("digits", digits, low=0, high=15),
            position=f.anchor(default=position),
            font=f.choice("font", tuple(sheets.FONTS), "helvetica"),
            font_size=f.number("fontSize", 10.0, low=1, high=200),
            color=f.color("color", _BLACK),
            margin=f.number("margin", 24.0, low=0, high=MAX_EXTENT),
            offset=f.point("offset"),
            pages=f.pages(),
        )

    return parse


parse_page_numbers = _parser(0, "bottom")
parse_bates = _parser(6, "bottomRight")


def texts(spec: NumberingSpec) -> tuple[str, ...]:
    return tuple(t for t in (spec.prefix, spec.suffix) if t)


def apply_page_numbers(
    doc: pymupdf.Document, spec: NumberingSpec, state: RunState, path: str
) -> None:
    state.numbers["pageNumbers"] = _number(doc, spec, spec.start, state, path)


def apply_bates(
    doc: pymupdf.Document, spec: NumberingSpec, state: RunState, path: str
) -> None:
    first = state.context.bates_next
    state.numbers["bates"] = _number(
        doc, spec, spec.start if first is None else first, state, path
    )


def _number(
    doc: pymupdf.Document, spec: NumberingSpec, first: int, state: RunState, path: str
) -> NumberRange:
    pages = selected_pages(spec.pages, doc.page_count, path)
    last = first + len(pages) - 1
    face = _face(spec, spec.label(last, last))
    for n, number in enumerate(pages):
        page = doc[number]
        text = spec.label(first + n, last)
        size = (
            face.font.text_length(text, fontsize=spec.font_size),
            spec.font_size * (face.font.ascender - face.font.descender),
        )
        areas = _areas(page, state.areas.get(number, ()))
        box = placement.anchored(page, size, spec.position, spec.margin, spec.offset)
        if areas and placement.overlaps(box, areas, CLEARANCE):
            state.moved.add(number)
            found = _free_place(page, size, spec, areas)
            if found is None:
                state.not_drawn.add(number)
                continue
            box = found
        _draw(page, box, text, face, spec)
    return NumberRange(first, last)


def _areas(
    page: pymupdf.Page, rects: list[tuple[float, float, float, float]] | tuple[()]
) -> list[Box]:
    return [geometry.pdf_rect_to_display(page, pymupdf.Rect(r)) for r in rects]


def _free_place(
    page: pymupdf.Page,
    size: tuple[float, float],
    spec: NumberingSpec,
    areas: list[Box],
) -> Box | None:
    asked = ANCHORS[spec.position]
    order = sorted(ANCHORS, key=lambda a: math.dist(ANCHORS[a], asked))
    for anchor in order:
        base = placement.anchored(page, size, anchor, spec.margin, spec.offset)
        inward = -1.0 if ANCHORS[anchor][1] == 1.0 else 1.0
        for step in range(STEPS):
            box = Box(
                base.x,
                base.y + inward * step * (size[1] + CLEARANCE),
                base.w,
                base.h,
            )
            if placement.inside(page, box) and not placement.overlaps(
                box, areas, CLEARANCE
            ):
                return box
    return None


def _draw(
    page: pymupdf.Page, box: Box, text: str, face: Face, spec: NumberingSpec
) -> None:
    """`text` upright on the displayed page, its box's top-left at `box`."""
    baseline = pymupdf.Point(box.x, box.y + spec.font_size * face.font.ascender)
    page.insert_text(
        baseline * page.derotation_matrix,
        text,
        fontsize=spec.font_size,
        fontname=face.name,
        fontfile=face.file,
        color=spec.color.unit(),
        rotate=page.rotation,
    )


@dataclass(frozen=True, slots=True)
class Face:
    """A font as `insert_text` takes it: a base-14 name, or a file it embeds."""

    name: str
    file: str | None
    font: pymupdf.Font


def _face(spec: NumberingSpec, sample: str) -> Face:
    if all(ord(c) < 256 for c in sample) or not os.path.isfile(sheets.WIDE_FONT):
        code = sheets.FONTS[spec.font]
        return Face(code, None, pymupdf.Font(code))
    return Face("TSwide", sheets.WIDE_FONT, sheets.font(spec.font, sample))
