"""What each redaction area removed, measured on the page before and after
MuPDF's pass (the fill not yet painted): glyphs, image placements, vector
paths, annotations and fields. Counted, never stored as text: the removed
glyphs' text is handed to the caller's keyed hasher only.

Areas are PyMuPDF page space (unrotated page, top-left origin), as
`redact_page` hands them to MuPDF.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from engines.pdf.redact.glyphmap import TEXT_ONLY
from engines.pdf.redact.lines import Rect4, clipped_lines

_mupdf = pymupdf.mupdf
# MuPDF writes the content it filters anew, rounding positions: a glyph still
# there may have moved by a few hundredths of a point.
_ORIGIN_TOLERANCE = 0.5
_PATH_TOLERANCE = 0.5
# Each area's glyphs are read from the characters whose box overlaps the area
# grown by this much: a glyph `_under` takes has a box that meets the area, and
# the reading keeps only boxes that overlap strictly (one of no width on the
# area's edge would be missed without it).
_MARGIN = 1.0


@dataclass(slots=True)
class AreaCount:
    """One area's counts (see `engines.pdf.types.AreaEvidence`)."""

    glyphs: int = 0
    images: int = 0
    paths: int = 0
    annotations: int = 0
    fields: int = 0
    text: str = ""  # the removed glyphs, for the caller's hasher only


@dataclass(slots=True)
class Snapshot:
    """The page under the areas before redaction."""

    areas: list[Rect4]
    glyphs: list[list[tuple[str, float, float]]]  # per area: (char, x, y) origins
    paths: list[int]
    counts: list[AreaCount] = field(default_factory=list)


def before(
    page: pymupdf.Page,
    areas: Sequence[Rect4],
    lines: Sequence[dict[str, Any]],
    images: Sequence[dict[str, Any]] | None = None,
) -> Snapshot:
    """Read what lies under each area before anything is removed; `lines` are
    the lines meeting the areas as already extracted (rawdict), `images` its image
    list (`Page.get_image_info`) when already read."""
    counts = [AreaCount() for _ in areas]
    for image in page.get_image_info() if images is None else images:
        for n, area in enumerate(areas):
            if _meets(image["bbox"], area):
                counts[n].images += 1
    fields: list[set[str]] = [set() for _ in areas]
    for box, is_field, name in _annotations(page):
        for n, area in enumerate(areas):
            if not _meets(box, area):
                continue
            if is_field:
                fields[n].add(name)
            else:
                counts[n].annotations += 1
    for count, names in zip(counts, fields, strict=True):
        count.fields = len(names)
    return Snapshot(
        list(areas), _under(lines, areas), _paths(page, areas), counts=counts
    )


def after(page: pymupdf.Page, snapshot: Snapshot) -> list[AreaCount]:
    """The counts of each area once MuPDF's pass is done (before the fill)."""
    kept = _glyphs(page, snapshot.areas)
    # What went is the count before less the count after, never below 0: with
    # no path inside any area before, none went, and the drawings (a pass over
    # the page's content) need no second reading.
    paths = _paths(page, snapshot.areas) if any(snapshot.paths) else snapshot.paths
    for n, count in enumerate(snapshot.counts):
        left = list(kept[n])
        gone = []
        for char, x, y in snapshot.glyphs[n]:
            at = next(
                (
                    i
                    for i, (c, kx, ky) in enumerate(left)
                    if c == char
                    and abs(kx - x) <= _ORIGIN_TOLERANCE
                    and abs(ky - y) <= _ORIGIN_TOLERANCE
                ),
                None,
            )
            if at is None:
                gone.append(char)
            else:
                del left[at]
        count.glyphs = len(gone)
        count.text = "".join(gone)
        count.paths = max(0, snapshot.paths[n] - paths[n])
    return snapshot.counts


def _glyphs(
    page: pymupdf.Page, areas: Sequence[Rect4]
) -> list[list[tuple[str, float, float]]]:
    """`_under` the page's text near each area, read now: the page is read
    once and each area's neighbourhood taken from that reading alone (a page
    of text costs five times its reading when every glyph is made a dict)."""
    if not areas:
        return []
    textpage = page.get_textpage(flags=TEXT_ONLY)
    found = []
    for area in areas:
        x0, y0, x1, y1 = area
        near = (x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, y1 + _MARGIN)
        found.append(_under(clipped_lines(textpage, near), [area])[0])
    return found


def _under(
    lines: Sequence[dict[str, Any]], areas: Sequence[Rect4]
) -> list[list[tuple[str, float, float]]]:
    """Per area, the glyphs (not white space) whose box, shrunk by a tenth as
    MuPDF's filter judges, meets it: (glyph, origin x, origin y), in order."""
    found: list[list[tuple[str, float, float]]] = [[] for _ in areas]
    for line in lines:
        # A line's box holds its glyphs' boxes: only the areas it meets can
        # meet one of them.
        near = [n for n, area in enumerate(areas) if _meets(line["bbox"], area)]
        if not near:
            continue
        for span in line["spans"]:
            for char in span["chars"]:
                if char["c"].isspace():
                    continue
                x0, y0, x1, y1 = char["bbox"]
                dx, dy = (x1 - x0) * 0.1, (y1 - y0) * 0.1
                x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 - dx, y1 - dy
                for n in near:
                    ax0, ay0, ax1, ay1 = areas[n]
                    if x0 <= ax1 and ax0 <= x1 and y0 <= ay1 and ay0 <= y1:
                        x, y = char["origin"]
                        found[n].append((char["c"], x, y))
    return found


def _paths(page: pymupdf.Page, areas: Sequence[Rect4]) -> list[int]:
    """Per area, the vector paths lying wholly inside it (what MuPDF's
    `remove if covered` takes)."""
    counts = [0] * len(areas)
    if not areas:
        return counts
    for path in page.get_cdrawings():
        x0, y0, x1, y1 = path["rect"]
        for n, (ax0, ay0, ax1, ay1) in enumerate(areas):
            t = _PATH_TOLERANCE
            if ax0 - t <= x0 and ay0 - t <= y0 and x1 <= ax1 + t and y1 <= ay1 + t:
                counts[n] += 1
    return counts


def _annotations(page: pymupdf.Page) -> list[tuple[Rect4, bool, str]]:
    """Every annotation, widget and link of the page: its box (page space),
    whether it is a form field's widget, its field name."""
    found: list[tuple[Rect4, bool, str]] = []
    for annot in page.annots():
        found.append((tuple(annot.rect), False, ""))
    for widget in page.widgets():
        found.append((tuple(widget.rect), True, widget.field_name or ""))
    link = _mupdf.fz_load_links(page.this)
    while link.m_internal:
        rect = link.rect()
        shown = pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1)
        found.append((tuple(shown * page.derotation_matrix), False, ""))
        link = link.next()
    return found


def _meets(box: Sequence[float], area: Rect4) -> bool:
    """The intersection is a valid (possibly empty) rectangle."""
    bx0, by0, bx1, by1 = box
    ax0, ay0, ax1, ay1 = area
    return (
        bx0 <= bx1
        and bx0 <= ax1
        and ax0 <= bx1
        and ax0 <= ax1
        and by0 <= by1
        and by0 <= ay1
        and ay0 <= by1
        and ay0 <= ay1
    )
