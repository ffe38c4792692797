"""What paints under an area without being a page object PDFium lists:
images inside soft-mask groups and tiling patterns, and shadings that can
hold a picture.

Content is walked with its transformation matrix (`cm`, forms' /Matrix, the
matrix in force when a graphics state sets a soft mask, a pattern's /Matrix
for what it fills). An image a soft mask draws, or a tiling pattern's cell
draws where the pattern fills a path over an area (the cell repeats: the
area is read in every copy of the cell it meets), must be flat there; a function-based or
mesh shading (types 1, 4 to 7: a picture can be drawn with them) may not reach
an area at all. Areas here are rectangles in PDF user space.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

from engines.verify.report import Found

Matrix = tuple[float, float, float, float, float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1, PDF user space
_IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)
_PICTURE_SHADINGS = frozenset((1, 4, 5, 6, 7))
_FLAT = 24
_MAX_DEPTH = 16


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point is transformed by m, then by n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s,
            e * p + f * r + t, e * q + f * s + u)  # fmt: skip


def _bounds(rect: Rect, m: Matrix) -> Rect:
    x0, y0, x1, y1 = rect
    points = [(x, y) for x in (x0, x1) for y in (y0, y1)]
    xs = [m[0] * x + m[2] * y + m[4] for x, y in points]
    ys = [m[1] * x + m[3] * y + m[5] for x, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _meets(a: Rect, b: Rect) -> bool:
    return max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])


def check_painting(page: Dictionary, areas: Sequence[Rect], number: int) -> None:
    """Raise `Found` when a soft mask's image is not blank under an area or a
    picture shading reaches one."""
    resources = pikepdf.Page(page).resources
    if isinstance(resources, Dictionary):
        _Walker(areas, number).walk(pikepdf.Page(page), resources, _IDENTITY, 0)


class _Walker:
    def __init__(self, areas: Sequence[Rect], number: int) -> None:
        self.areas = list(areas)
        self.number = number

    def walk(
        self,
        source: pikepdf.Page | Stream,
        resources: Dictionary,
        ctm: Matrix,
        depth: int,
        in_mask: bool = False,
    ) -> None:
        if depth > _MAX_DEPTH:
            return
        try:
            operations = pikepdf.parse_content_stream(source)
        except pikepdf.PdfError:
            return
        stack: list[tuple[Matrix, str | None]] = []
        pattern: str | None = None
        corners: list[tuple[float, float]] = []
        for instruction in operations:
            operands, operator = instruction.operands, instruction.operator
            name = str(operator)
            if name == "q":
                stack.append((ctm, pattern))
            elif name == "Q" and stack:
                ctm, pattern = stack.pop()
            elif name in ("scn", "sc") and operands and isinstance(operands[-1], Name):
                pattern = str(operands[-1])
            elif name in ("cs", "g", "rg", "k"):
                pattern = None
            elif name in _PATH_OPERATORS:
                corners += _corners(name, [float(v) for v in operands], ctm)
            elif name in _PAINTING:
                if pattern is not None and name in _FILLING and corners:
                    self._pattern(resources, pattern, corners, depth)
                corners = []
            elif name == "cm" and len(operands) == 6:
                ctm = multiply(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif name == "gs" and operands:
                self._state(resources, str(operands[0]), ctm, depth)
            elif name == "sh" and operands:
                self._shading(resources, str(operands[0]), ctm)
            elif name == "Do" and operands:
                self._xobject(resources, str(operands[0]), ctm, depth, in_mask)
            elif name == "INLINE IMAGE" and in_mask:
                self._image(operands[0], ctm)

    def _pattern(
        self,
        resources: Dictionary,
        key: str,
        corners: list[tuple[float, float]],
        depth: int,
    ) -> None:
        pattern = self._entry(resources, "/Pattern", key)
        if not isinstance(pattern, Stream) or pattern.get("/PatternType") != 1:
            return
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        filled = (min(xs), min(ys), max(xs), max(ys))
        hit = [a for a in self.areas if _meets(a, filled)]
        if not hit:
            return
        matrix = pattern.get(Name.Matrix)
        to_page: Matrix = (
            tuple(float(v) for v in matrix)  # type: ignore[assignment]
            if isinstance(matrix, Array) and len(matrix) == 6
            else _IDENTITY
        )
        box = pattern.get(Name.BBox)
        steps = (pattern.get("/XStep"), pattern.get("/YStep"))
        if not isinstance(box, Array) or not all(
            isinstance(s, int | float | Decimal) for s in steps
        ):
            return
        x0, y0 = float(min(box[0], box[2])), float(min(box[1], box[3]))
        xstep, ystep = abs(float(steps[0])), abs(float(steps[1]))  # type: ignore[arg-type]
        if not xstep or not ystep:
            return
        # Each copy of the cell that meets an area is read with that area.
        inverse = _inverted(to_page)
        own = pattern.get(Name.Resources)
        inner = own if isinstance(own, Dictionary) else Dictionary()
        for area in hit:
            part = (max(area[0], filled[0]), max(area[1], filled[1]),
                    min(area[2], filled[2]), min(area[3], filled[3]))  # fmt: skip
            if inverse is None:
                return
            span = _bounds(part, inverse)
            columns = range(
                int((span[0] - x0) // xstep), int((span[2] - x0) // xstep) + 1
            )
            rows = range(int((span[1] - y0) // ystep), int((span[3] - y0) // ystep) + 1)
            if len(columns) * len(rows) > 64:
                raise Found(f"page {self.number + 1}, a pattern repeated under an area")
            for i in columns:
                for j in rows:
                    copy = multiply((1, 0, 0, 1, i * xstep, j * ystep), to_page)
                    back = _inverted(copy)
                    if back is None:
                        continue
                    cell = _Walker([_bounds(part, back)], self.number)
                    cell.walk(pattern, inner, _IDENTITY, depth + 1, in_mask=True)

    def _entry(self, resources: Dictionary, category: str, key: str) -> object:
        entries = resources.get(category)
        return entries.get(key) if isinstance(entries, Dictionary) else None

    def _state(self, resources: Dictionary, key: str, ctm: Matrix, depth: int) -> None:
        state = self._entry(resources, "/ExtGState", key)
        mask = state.get(Name.SMask) if isinstance(state, Dictionary) else None
        group = mask.get(Name.G) if isinstance(mask, Dictionary) else None
        if isinstance(group, Stream):
            self._form(group, resources, ctm, depth, in_mask=True)

    def _xobject(
        self, resources: Dictionary, key: str, ctm: Matrix, depth: int, in_mask: bool
    ) -> None:
        xobject = self._entry(resources, "/XObject", key)
        if not isinstance(xobject, Stream):
            return
        if xobject.get(Name.Subtype) == Name.Form:
            self._form(xobject, resources, ctm, depth, in_mask)
        elif xobject.get(Name.Subtype) == Name.Image and in_mask:
            self._image(xobject, ctm)

    def _form(
        self,
        form: Stream,
        resources: Dictionary,
        ctm: Matrix,
        depth: int,
        in_mask: bool,
    ) -> None:
        matrix = form.get(Name.Matrix)
        if isinstance(matrix, Array) and len(matrix) == 6:
            ctm = multiply(tuple(float(v) for v in matrix), ctm)  # type: ignore[arg-type]
        own = form.get(Name.Resources)
        inner = own if isinstance(own, Dictionary) else resources
        self.walk(form, inner, ctm, depth + 1, in_mask=in_mask)

    def _shading(self, resources: Dictionary, key: str, ctm: Matrix) -> None:
        shading = self._entry(resources, "/Shading", key)
        if not isinstance(shading, Dictionary | Stream):
            return
        kind = int(shading.get("/ShadingType", 0))
        if kind not in _PICTURE_SHADINGS:
            return
        extent = shading_extent(shading, kind)
        reach = _bounds(extent, ctm) if extent is not None else None
        if reach is None or any(_meets(reach, area) for area in self.areas):
            raise Found(f"page {self.number + 1}, a shading under an area")

    def _image(self, image: Any, ctm: Matrix) -> None:
        placed = _bounds((0, 0, 1, 1), ctm)
        hit = [area for area in self.areas if _meets(placed, area)]
        if not hit:
            return
        reader = pikepdf.PdfImage(image) if isinstance(image, Stream) else image
        try:
            picture = reader.as_pil_image()  # an image or an inline image
        except (pikepdf.PdfError, NotImplementedError, ValueError):
            raise Found(f"page {self.number + 1}, an unreadable masked image") from None
        pixels = np.asarray(picture)
        height, width = pixels.shape[:2]
        for area in hit:
            region = _pixel_region(area, ctm, width, height)
            if region is None:
                continue
            x0, y0, x1, y1 = region
            part = pixels[y0:y1, x0:x1]
            if (
                part.size
                and int(np.ptp(part.reshape(-1, *part.shape[2:]), axis=0).max()) > _FLAT
            ):
                raise Found(f"page {self.number + 1}, a masked image under an area")


_PATH_OPERATORS = frozenset(("m", "l", "c", "v", "y", "re"))
_PAINTING = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"))
_FILLING = frozenset(("f", "F", "f*", "B", "B*", "b", "b*"))


def _corners(name: str, values: list[float], ctm: Matrix) -> list[tuple[float, float]]:
    if name == "re" and len(values) == 4:
        x, y, w, h = values
        values = [x, y, x + w, y + h]
    return [
        (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
        for x, y in zip(values[::2], values[1::2], strict=False)
    ]


def _inverted(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det,
            (c * f - d * e) / det, (b * e - a * f) / det)  # fmt: skip


def _pixel_region(
    area: Rect, ctm: Matrix, width: int, height: int
) -> tuple[int, int, int, int] | None:
    """The image pixels (columns, rows from the top) lying wholly in `area`."""
    a, b, c, d, e, f = ctm
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    inverse: Matrix = (d / det, -b / det, -c / det, a / det,
                       (c * f - d * e) / det, (b * e - a * f) / det)  # fmt: skip
    ux0, uy0, ux1, uy1 = _bounds(area, inverse)
    # Unit square: y up; image rows run from the top (y = 1).
    col0, col1 = int(np.ceil(max(0.0, ux0) * width)), int(min(1.0, ux1) * width)
    row0 = int(np.ceil((1 - min(1.0, uy1)) * height))
    row1 = int((1 - max(0.0, uy0)) * height)
    # One pixel in from each side: resampling blurs the edge.
    col0, row0, col1, row1 = col0 + 1, row0 + 1, col1 - 1, row1 - 1
    if col1 <= col0 or row1 <= row0:
        return None
    return col0, row0, col1, row1


def shading_extent(shading: Dictionary | Stream, kind: int) -> Rect | None:
    """Where the shading can paint in its own space: its /BBox, else its
    domain (type 1) or the range its coordinates can take (/Decode, meshes);
    None when it is not known (it may paint everywhere)."""
    box = shading.get(Name.BBox)
    if isinstance(box, Array) and len(box) == 4:
        x0, y0, x1, y1 = (float(v) for v in box)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    if kind == 1:
        domain = shading.get("/Domain")
        x0, x1, y0, y1 = (
            [float(v) for v in domain] if isinstance(domain, Array) else [0, 1, 0, 1]
        )
        matrix = shading.get(Name.Matrix)
        m: Matrix = (
            tuple(float(v) for v in matrix)  # type: ignore[assignment]
            if isinstance(matrix, Array) and len(matrix) == 6
            else _IDENTITY
        )
        return _bounds((x0, y0, x1, y1), m)
    decode = shading.get(Name.Decode)
    if isinstance(decode, Array) and len(decode) >= 4:
        x0, x1, y0, y1 = (float(v) for v in list(decode)[:4])
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    return None
