"""Type 3 text judged by what it draws.

A Type 3 glyph is a small content stream: it may draw far from the box its
font declares, so MuPDF's redaction, which judges glyphs by that box, keeps
glyphs whose ink lies under an area (and the user sees the word there). Each
Type 3 text run is judged by its ink instead, as MuPDF's drawing reports it:
a run whose ink meets an area goes whole (the glyphs of a run cannot be told
apart by their ink; removing the run is the safe side).

Rectangles are in PyMuPDF's page space (unrotated page, origin top-left).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

Rect4 = tuple[float, float, float, float]
_TEXT_KINDS = frozenset({"fill-text", "stroke-text", "clip-text", "ignore-text"})


@dataclass(frozen=True, slots=True)
class Type3Run:
    """One Type 3 text run: its text, each glyph's box and where it draws."""

    text: str
    glyphs: tuple[Rect4, ...]
    ink: Rect4 | None  # None: not known, judged as meeting every area


def type3_runs(page: pymupdf.Page) -> list[Type3Run]:
    """The page's Type 3 text runs; empty (and cheap) without Type 3 fonts."""
    names = _type3_names(page)
    if not names:
        return []
    log = page.get_bboxlog()
    runs = []
    for span in page.get_texttrace():
        if span["font"] not in names:
            continue
        number = span["seqno"]
        ink: Rect4 | None = None
        if 0 <= number < len(log) and log[number][0] in _TEXT_KINDS:
            x0, y0, x1, y1 = log[number][1]
            ink = (x0, y0, x1, y1)
        runs.append(
            Type3Run(
                text="".join(chr(char[0]) for char in span["chars"]),
                glyphs=tuple(tuple(char[3]) for char in span["chars"]),
                ink=ink,
            )
        )
    return runs


def inked_under(runs: Sequence[Type3Run], areas: Sequence[Rect4]) -> list[Type3Run]:
    """The runs whose ink meets one of `areas`."""
    return [
        run
        for run in runs
        if run.ink is None or any(_meets(run.ink, area) for area in areas)
    ]


def glyph_marks(runs: Sequence[Type3Run]) -> list[Rect4]:
    """Tiny areas at each glyph's centre: MuPDF's redaction removes a glyph
    whose box meets an area, whatever the glyph draws."""
    marks = []
    for run in runs:
        for x0, y0, x1, y1 in run.glyphs:
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
            marks.append((x - 0.01, y - 0.01, x + 0.01, y + 0.01))
    return marks


def _type3_names(page: pymupdf.Page) -> set[str]:
    """The names MuPDF gives the page's Type 3 fonts in extracted text."""
    names: set[str] = set()
    doc = page.parent
    for xref, _, kind, base, *_ in page.get_fonts(full=True):
        if kind != "Type3":
            continue
        # MuPDF names a Type 3 font by /Name, else /BaseFont, else its object.
        names.add(f"Type3 ({xref} 0 R)")
        if base:
            names.add(base)
        kind_, value = doc.xref_get_key(xref, "Name")
        if kind_ == "name":
            names.add(value.lstrip("/"))
    return names


def _meets(a: Rect4, b: Rect4) -> bool:
    return max(a[0], b[0]) <= min(a[2], b[2]) and max(a[1], b[1]) <= min(a[3], b[3])
