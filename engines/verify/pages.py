"""Each page as PDFium reads and draws it (an engine the redaction does not use).

- Text under an area: a character whose box centre (both its font box and its
  ink box) lies in an area, and which is painted before the area's fill, was
  not removed. What is painted over the fill is visible to everyone.
- Pixels under an area: the page is drawn with only its images (fills, text,
  paths and whatever is painted after the fills left out); where an area lies,
  the drawing must be one flat colour (the pixels were blanked, or no image
  lies there).
- Which removed runs the page still shows outside the areas: the only ones
  its content streams may hold (its annotations may show none).

Areas are in displayed space: points, origin at the top-left corner of the
page as displayed (CropBox, /Rotate applied), y down. Pages count from 0.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw

from engines.verify.needles import Needles
from engines.verify.report import Found

# A fill is found when its bounds are this close (points) to its area's.
_FILL_TOLERANCE = 0.75
# Rendered pixels this far inside an area's edge are judged (anti-aliasing).
_INSET = 1.5
# Largest spread of a channel over a blanked area (image filters blur edges).
_FLAT = 24
_IMAGE = raw.FPDF_PAGEOBJ_IMAGE
_FORM = raw.FPDF_PAGEOBJ_FORM
_PATH = raw.FPDF_PAGEOBJ_PATH


@dataclass(frozen=True, slots=True)
class Area:
    """A redacted area: displayed space (see the module), fill colour 0-255."""

    x: float
    y: float
    w: float
    h: float
    colour: tuple[int, int, int] = (0, 0, 0)


Transform = tuple[float, float, float, float, int]  # crop x0, y0, x1, y1, rotation


def to_display(point: tuple[float, float], crop: Transform) -> tuple[float, float]:
    """A point of PDF user space in displayed space."""
    x0, y0, x1, y1, rotation = crop
    px, py = point[0] - x0, y1 - point[1]
    width, height = x1 - x0, y1 - y0
    if rotation == 90:
        return height - py, px
    if rotation == 180:
        return width - px, height - py
    if rotation == 270:
        return py, width - px
    return px, py


def check_page(
    document: pdfium.PdfDocument,
    number: int,
    areas: Sequence[Area],
) -> str:
    """Raise `Found` for text left under an area or pixels not blanked there.
    Returns the page's text as PDFium reads it (for `shown_runs`: the page is
    then loaded and its text read once)."""
    page = document[number]
    try:
        order, fills = _objects(page, areas)
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
            _check_text(textpage, number, areas, _crop_of(page), order, fills)
        finally:
            textpage.close()
        # After the text: this leaves only some images of the page active.
        _check_pixels(page, number, areas, order, fills)
    finally:
        page.close()
    return text


def page_text(document: pdfium.PdfDocument, number: int) -> str:
    """Page `number`'s text as PDFium reads it (annotations not included)."""
    page = document[number]
    try:
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        textpage.close()
    finally:
        page.close()
    return text


def shown_runs(text: str, needles: Needles) -> set[str]:
    """The removed runs a page whose text is `text` (`page_text`) shows
    (annotations are not counted: no annotation may show one)."""
    # Letters set apart (a tracked heading) read as one word too.
    return needles.matches(text) | needles.matches("".join(text.split()))


def _address(handle: Any) -> int:
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


def _objects(page: pdfium.PdfPage, areas: Sequence[Area]) -> tuple[_Order, list[int]]:
    """Where each page object stands in painting order (`_Order`), and for
    each area, the index of its fill (past the last object when none is
    found: then everything counts as under it). Fills are looked for from the
    end: they are painted after the page's content."""
    count = raw.FPDFPage_CountObjects(page.raw)
    fills = [count] * len(areas)
    crop = _crop_of(page)
    missing = set(range(len(areas)))
    for index in reversed(range(count)):
        if not missing:
            break
        obj = raw.FPDFPage_GetObject(page.raw, index)
        if raw.FPDFPageObj_GetType(obj) != _PATH:
            continue
        for number in list(missing):
            if _is_fill(obj, areas[number], crop):
                fills[number] = index
                missing.discard(number)
    return _Order(page, count), fills


class _Order:
    """Page object → the index of the top-level object it belongs to (forms'
    objects included), read on first need."""

    def __init__(self, page: pdfium.PdfPage, count: int) -> None:
        self._page, self._count = page, count
        self._order: dict[int, int] | None = None

    def get(self, address: int, default: int) -> int:
        if self._order is None:
            self._order = {}
            for index in range(self._count):
                obj = raw.FPDFPage_GetObject(self._page.raw, index)
                _index_form(obj, index, self._order, 0)
        return self._order.get(address, default)


def _index_form(obj: Any, index: int, order: dict[int, int], depth: int) -> None:
    order[_address(obj)] = index
    if depth > 32 or raw.FPDFPageObj_GetType(obj) != _FORM:
        return
    for inner in range(raw.FPDFFormObj_CountObjects(obj)):
        _index_form(raw.FPDFFormObj_GetObject(obj, inner), index, order, depth + 1)


def _is_fill(obj: Any, area: Area, crop: Transform) -> bool:
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill), ctypes.byref(stroke)):
        return False
    if not fill.value or not _bounds_match(obj, area, crop):
        return False
    red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
    if not raw.FPDFPageObj_GetFillColor(
        obj,
        ctypes.byref(red),
        ctypes.byref(green),
        ctypes.byref(blue),
        ctypes.byref(alpha),
    ):
        return False
    colour = (red.value, green.value, blue.value)
    return all(abs(a - b) <= 2 for a, b in zip(colour, area.colour, strict=True))


def _bounds_match(obj: Any, area: Area, crop: Transform) -> bool:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    raw.FPDFPageObj_GetBounds(
        obj,
        ctypes.byref(left),
        ctypes.byref(bottom),
        ctypes.byref(right),
        ctypes.byref(top),
    )
    corners = [
        to_display((x, y), crop)
        for x in (left.value, right.value)
        for y in (bottom.value, top.value)
    ]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (
        abs(min(xs) - area.x) <= _FILL_TOLERANCE
        and abs(min(ys) - area.y) <= _FILL_TOLERANCE
        and abs(max(xs) - (area.x + area.w)) <= _FILL_TOLERANCE
        and abs(max(ys) - (area.y + area.h)) <= _FILL_TOLERANCE
    )


def _crop_of(page: pdfium.PdfPage) -> Transform:
    x0, y0, x1, y1 = page.get_cropbox()
    return (x0, y0, x1, y1, page.get_rotation() % 360)


def _check_text(
    textpage: pdfium.PdfTextPage,
    number: int,
    areas: Sequence[Area],
    crop: Transform,
    order: _Order,
    fills: list[int],
) -> None:
    """Characters whose centre (ink box and font box) lies in an area, painted
    before its fill. PDFium first says which areas hold any text at all
    (bounded text): a redacted page usually has none left, and its
    characters are then not read one by one."""
    user = [to_user(area, crop) for area in areas]
    near = [
        (which, rect)
        for which, rect in enumerate(user)
        if textpage.get_text_bounded(rect[0], rect[1], rect[2], rect[3]).strip()
    ]
    if not near:
        return
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    loose = raw.FS_RECTF()
    handle = textpage.raw
    for index in range(textpage.count_chars()):
        raw.FPDFText_GetCharBox(
            handle, index, ctypes.byref(left), ctypes.byref(right),
            ctypes.byref(bottom), ctypes.byref(top),
        )  # fmt: skip
        x, y = (left.value + right.value) / 2, (bottom.value + top.value) / 2
        hit = [w for w, r in near if r[0] < x < r[2] and r[1] < y < r[3]]
        if not hit or chr(raw.FPDFText_GetUnicode(handle, index) or 32).isspace():
            continue
        raw.FPDFText_GetLooseCharBox(handle, index, ctypes.byref(loose))
        lx, ly = (loose.left + loose.right) / 2, (loose.top + loose.bottom) / 2
        for which in hit:
            r = user[which]
            if not (r[0] < lx < r[2] and r[1] < ly < r[3]):
                continue
            obj = raw.FPDFText_GetTextObject(handle, index)
            if order.get(_address(obj), -1) < fills[which]:
                raise Found(f"page {number + 1}, under area {which + 1}")


def to_user(area: Area, crop: Transform) -> tuple[float, float, float, float]:
    """A displayed-space area as a rectangle of PDF user space."""
    x0, y0, x1, y1, rotation = crop
    width, height = x1 - x0, y1 - y0
    points = []
    for dx in (area.x, area.x + area.w):
        for dy in (area.y, area.y + area.h):
            if rotation == 90:
                px, py = dy, height - dx
            elif rotation == 180:
                px, py = width - dx, height - dy
            elif rotation == 270:
                px, py = width - dy, dx
            else:
                px, py = dx, dy
            points.append((x0 + px, y1 - py))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _check_pixels(
    page: pdfium.PdfPage,
    number: int,
    areas: Sequence[Area],
    order: _Order,
    fills: list[int],
) -> None:
    """Only the images painted before every fill are drawn (see the module)."""
    first_fill = min(fills)
    count = raw.FPDFPage_CountObjects(page.raw)
    images = 0
    for index in range(count):
        obj = raw.FPDFPage_GetObject(page.raw, index)
        images += _keep_images(obj, index < first_fill, 0)
    if not images:
        return
    bitmap = page.render(scale=1, may_draw_forms=False)
    pixels = bitmap.to_numpy()
    for which, area in enumerate(areas):
        x0, y0 = int(area.x + _INSET), int(area.y + _INSET)
        x1, y1 = int(area.x + area.w - _INSET), int(area.y + area.h - _INSET)
        region = pixels[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1), :3]
        if region.size and int(np.ptp(region, axis=(0, 1)).max()) > _FLAT:
            raise Found(f"page {number + 1}, under area {which + 1} (image pixels)")


def _keep_images(obj: object, before: bool, depth: int) -> int:
    """Leave active the images of `obj` (forms entered) painted before the
    fills; return how many."""
    kind = raw.FPDFPageObj_GetType(obj)
    if kind == _FORM and depth < 32:
        kept = sum(
            _keep_images(raw.FPDFFormObj_GetObject(obj, inner), before, depth + 1)
            for inner in range(raw.FPDFFormObj_CountObjects(obj))
        )
        return kept
    keep = before and kind == _IMAGE
    raw.FPDFPageObj_SetIsActive(obj, keep)
    return int(keep)
