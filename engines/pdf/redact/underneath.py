"""What paints under an area that MuPDF's redaction does not reach.

- Picture shadings (function-based and meshes, types 1 and 4 to 7: they can
  draw a picture) that can reach an area are removed from the content that
  paints them (`sh`).
- Images drawn by a soft mask's group (a luminosity mask shows their pixels
  through what it masks), and by the cell of a tiling pattern that fills a
  path meeting the area (a scan painted as a pattern), lose their pixels
  under the area, as MuPDF blanks the images the page draws directly. A
  pattern cell repeats: the area is taken to the cell modulo its steps.

Content is walked with its transformation matrix (`cm`, forms' /Matrix, the
matrix in force when a graphics state sets a soft mask). Areas are rectangles
in PDF user space. Streams are changed in place: a form or image shared with
another page loses the same there (the safe side).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream
from PIL import Image

Matrix = tuple[float, float, float, float, float, float]
Rect = tuple[float, float, float, float]
_PICTURES = frozenset((1, 4, 5, 6, 7))
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_MAX_DEPTH = 16


def clear_underneath(page: Dictionary, areas: Sequence[Rect]) -> None:
    """Remove picture shadings reaching `areas` and blank soft masks' images
    there (see the module)."""
    resources = pikepdf.Page(page).resources
    if not _may_paint_underneath(resources):
        return
    walker = _Walker(list(areas))
    walker.walk(page, resources, _IDENTITY, 0, in_mask=False)


def _may_paint_underneath(resources: object) -> bool:
    """Whether the page's content can reach anything `_Walker` changes: a
    shading (`sh`), a pattern (`scn`), an XObject (`Do`: forms and their own
    resources, images) or a soft mask (`gs`) all go through the page's
    resources. A page with none of them (most text pages) needs no walk of
    its content, which cost the parse of every operator of the page."""
    if not isinstance(resources, Dictionary):
        return False
    for category in ("/Shading", "/Pattern", "/XObject"):
        entries = resources.get(category)
        if isinstance(entries, Dictionary) and len(entries.keys()) > 0:
            return True
    states = resources.get("/ExtGState")
    if not isinstance(states, Dictionary):
        return False
    return any(
        isinstance(state, Dictionary) and isinstance(state.get(Name.SMask), Dictionary)
        for _, state in states.items()
    )


def _concat(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s,
            e * p + f * r + t, e * q + f * s + u)  # fmt: skip


def _box(rect: Rect, m: Matrix) -> Rect:
    xs, ys = [], []
    for x in (rect[0], rect[2]):
        for y in (rect[1], rect[3]):
            xs.append(m[0] * x + m[2] * y + m[4])
            ys.append(m[1] * x + m[3] * y + m[5])
    return (min(xs), min(ys), max(xs), max(ys))


def _meets(a: Rect, b: Rect) -> bool:
    return max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])


def _matrix(value: object) -> Matrix:
    if isinstance(value, Array) and len(value) == 6:
        a, b, c, d, e, f = (float(v) for v in value)
        return (a, b, c, d, e, f)
    return _IDENTITY


class _Walker:
    def __init__(self, areas: list[Rect]) -> None:
        self.areas = areas

    def walk(
        self, holder: Dictionary | Stream, resources: Any, ctm: Matrix, depth: int,
        *, in_mask: bool,
    ) -> None:  # fmt: skip
        if depth > _MAX_DEPTH or not isinstance(resources, Dictionary):
            return
        source = pikepdf.Page(holder) if not isinstance(holder, Stream) else holder
        try:
            operations = pikepdf.parse_content_stream(source)
        except pikepdf.PdfError:
            return
        stack: list[tuple[Matrix, str | None]] = []
        removed: set[str] = set()
        kept = []
        fill: str | None = None  # the tiling pattern filling paths, by name
        path: list[tuple[float, float]] = []
        for instruction in operations:
            operands, operator = instruction.operands, str(instruction.operator)
            if operator == "q":
                stack.append((ctm, fill))
            elif operator == "Q" and stack:
                ctm, fill = stack.pop()
            elif (
                operator in ("scn", "sc")
                and operands
                and isinstance(operands[-1], Name)
            ):
                fill = str(operands[-1])
            elif operator in ("rg", "g", "k", "cs"):
                fill = None
            elif operator in _PATH:
                path += _points(operator, [float(v) for v in operands], ctm)
            elif operator in _PAINT:
                if fill is not None and operator in _FILLS and path:
                    self._pattern_fill(resources, fill, path, depth)
                path = []
            elif operator == "cm" and len(operands) == 6:
                ctm = _concat(_matrix(Array(list(operands))), ctm)
            elif operator == "gs" and operands:
                self._mask(resources, str(operands[0]), ctm, depth)
            elif operator == "Do" and operands:
                self._xobject(resources, str(operands[0]), ctm, depth, in_mask)
            elif (
                operator == "sh"
                and operands
                and self._picture_reaches(resources, str(operands[0]), ctm)
            ):
                removed.add(str(operands[0]))
                continue
            kept.append(instruction)
        if removed:
            # The shading leaves the resources too, where nothing else paints it.
            used = {str(op.operands[0]) for op in kept if str(op.operator) == "sh"}
            shadings = resources.get("/Shading")
            for key in removed - used:
                if isinstance(shadings, Dictionary) and key in shadings:
                    del shadings[key]
            data = pikepdf.unparse_content_stream(kept)
            if isinstance(holder, Stream):
                holder.write(data)
            else:
                pikepdf.Page(holder).contents_coalesce()
                contents = holder.get(Name.Contents)
                if isinstance(contents, Stream):
                    contents.write(data)

    def _pattern_fill(
        self,
        resources: Dictionary,
        key: str,
        path: list[tuple[float, float]],
        depth: int,
    ) -> None:
        pattern = self._entry(resources, "/Pattern", key)
        if not isinstance(pattern, Stream) or pattern.get("/PatternType") != 1:
            return
        xs, ys = [p[0] for p in path], [p[1] for p in path]
        painted = (min(xs), min(ys), max(xs), max(ys))
        parts = [
            _overlap(area, painted) for area in self.areas if _meets(area, painted)
        ]
        if not parts:
            return
        matrix = _matrix(pattern.get(Name.Matrix))
        inverse = _inverse(matrix)
        if inverse is None:
            return
        cells = [
            cell for part in parts for cell in _cells(_box(part, inverse), pattern)
        ]
        inner = _Walker(cells)
        own = pattern.get(Name.Resources)
        inner.walk(pattern, own, _IDENTITY, depth + 1, in_mask=True)

    def _entry(self, resources: Dictionary, category: str, key: str) -> object:
        entries = resources.get(category)
        return entries.get(key) if isinstance(entries, Dictionary) else None

    def _mask(self, resources: Dictionary, key: str, ctm: Matrix, depth: int) -> None:
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
            self._form(xobject, resources, ctm, depth, in_mask=in_mask)
        elif xobject.get(Name.Subtype) == Name.Image and in_mask:
            _blank(xobject, ctm, self.areas)

    def _form(
        self,
        form: Stream,
        resources: Dictionary,
        ctm: Matrix,
        depth: int,
        *,
        in_mask: bool,
    ) -> None:
        own = form.get(Name.Resources)
        inner = own if isinstance(own, Dictionary) else resources
        matrix = _concat(_matrix(form.get(Name.Matrix)), ctm)
        self.walk(form, inner, matrix, depth + 1, in_mask=in_mask)

    def _picture_reaches(self, resources: Dictionary, key: str, ctm: Matrix) -> bool:
        shading = self._entry(resources, "/Shading", key)
        if not isinstance(shading, Dictionary | Stream):
            return False
        kind = shading.get("/ShadingType")
        if not isinstance(kind, int) or kind not in _PICTURES:
            return False
        extent = _extent(shading, kind)
        if extent is None:
            return True  # may paint anywhere
        reach = _box(extent, ctm)
        return any(_meets(reach, area) for area in self.areas)


_PATH = frozenset(("m", "l", "c", "v", "y", "re"))
_PAINT = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"))
_FILLS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*"))


def _points(
    operator: str, values: list[float], ctm: Matrix
) -> list[tuple[float, float]]:
    """The points of a path operation, in the space `ctm` leads to."""
    if operator == "re" and len(values) == 4:
        x, y, w, h = values
        values = [x, y, x + w, y + h]
    pairs = list(zip(values[::2], values[1::2], strict=False))
    return [
        (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
        for x, y in pairs
    ]


def _overlap(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _inverse(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det,
            (c * f - d * e) / det, (b * e - a * f) / det)  # fmt: skip


def _cells(rect: Rect, pattern: Stream) -> list[Rect]:
    """`rect` (pattern space) taken into the pattern's first cell: the cell
    repeats every /XStep and /YStep from its /BBox."""
    box = pattern.get(Name.BBox)
    steps = (pattern.get("/XStep"), pattern.get("/YStep"))
    if not isinstance(box, Array) or not all(
        isinstance(s, int | float | Decimal) for s in steps
    ):
        return [rect]
    left, bottom = float(min(box[0], box[2])), float(min(box[1], box[3]))
    xstep, ystep = abs(float(steps[0])), abs(float(steps[1]))  # type: ignore[arg-type]
    if (
        not xstep
        or not ystep
        or rect[2] - rect[0] >= xstep
        or rect[3] - rect[1] >= ystep
    ):
        return [(left, bottom, left + max(xstep, 1), bottom + max(ystep, 1))]
    dx = (rect[0] - left) // xstep * xstep
    dy = (rect[1] - bottom) // ystep * ystep
    moved = (rect[0] - dx, rect[1] - dy, rect[2] - dx, rect[3] - dy)
    # A rectangle crossing a cell's edge wraps round to the cell's other side.
    return [
        (
            moved[0] - i * xstep,
            moved[1] - j * ystep,
            moved[2] - i * xstep,
            moved[3] - j * ystep,
        )
        for i in (0, 1)
        for j in (0, 1)
    ]


def _extent(shading: Dictionary | Stream, kind: int) -> Rect | None:
    box = shading.get(Name.BBox)
    if isinstance(box, Array) and len(box) == 4:
        x0, y0, x1, y1 = (float(v) for v in box)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    if kind == 1:
        domain = shading.get("/Domain")
        values = (
            [float(v) for v in domain] if isinstance(domain, Array) else [0, 1, 0, 1]
        )
        rect = (values[0], values[2], values[1], values[3])
        return _box(rect, _matrix(shading.get(Name.Matrix)))
    decode = shading.get(Name.Decode)
    if isinstance(decode, Array) and len(decode) >= 4:
        x0, x1, y0, y1 = (float(v) for v in list(decode)[:4])
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    return None


def _blank(image: Stream, ctm: Matrix, areas: Sequence[Rect]) -> None:
    """White out the image's pixels under `areas` (rewritten as 8-bit Flate)."""
    placed = _box((0, 0, 1, 1), ctm)
    hit = [area for area in areas if _meets(placed, area)]
    if not hit:
        return
    try:
        picture = pikepdf.PdfImage(image).as_pil_image()
    except (pikepdf.PdfError, NotImplementedError, ValueError):
        picture = Image.new("L", (1, 1), 255)  # unreadable: drawn as blank
        hit = []
    mode = {"1": "L", "P": "RGB", "LA": "L", "RGBA": "RGB"}.get(
        picture.mode, picture.mode
    )
    picture = picture.convert(mode)
    width, height = picture.size
    white = 0 if mode == "CMYK" else 255
    for area in hit:
        region = _pixels(area, ctm, width, height)
        if region is not None:
            fill = (white,) * len(picture.getbands())
            picture.paste(fill if len(fill) > 1 else fill[0], region)
    spaces = {"L": Name.DeviceGray, "RGB": Name.DeviceRGB, "CMYK": Name.DeviceCMYK}
    image.write(zlib.compress(picture.tobytes()), filter=Name.FlateDecode)
    image.Width, image.Height = width, height
    image.BitsPerComponent = 8
    image.ColorSpace = spaces.get(mode, Name.DeviceRGB)
    for key in ("/Decode", "/DecodeParms", "/ImageMask", "/SMaskInData"):
        if key in image:
            del image[key]


def _pixels(
    area: Rect, ctm: Matrix, width: int, height: int
) -> tuple[int, int, int, int] | None:
    """The image pixels (left, top, right, bottom) meeting `area`."""
    a, b, c, d, e, f = ctm
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    inverse: Matrix = (d / det, -b / det, -c / det, a / det,
                       (c * f - d * e) / det, (b * e - a * f) / det)  # fmt: skip
    x0, y0, x1, y1 = _box(area, inverse)
    left, right = max(0, int(x0 * width)), min(width, int(x1 * width) + 1)
    top, bottom = (
        max(0, int((1 - y1) * height)),
        min(height, int((1 - y0) * height) + 1),
    )
    if right <= left or bottom <= top:
        return None
    return (left, top, right, bottom)
