"""Reading one operation's JSON object into typed values, each refusal naming
the field path (`operations[2].opacity: must be between 0 and 1`).

The reader takes the decoded JSON (wire names, camelCase) of one operation and
the path of that object; every getter checks one field and returns a Python
value, and `finish()` refuses fields that no getter asked for (a misspelt
field must not be silently ignored).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engines.errors import InvalidOperation
from engines.pdf.types import Box, PageRange, Rgb

# The nine places a stamp or a number can be anchored on the displayed page:
# (horizontal, vertical) fractions of the free width and height.
ANCHORS: dict[str, tuple[float, float]] = {
    "topLeft": (0.0, 0.0),
    "top": (0.5, 0.0),
    "topRight": (1.0, 0.0),
    "left": (0.0, 0.5),
    "center": (0.5, 0.5),
    "right": (1.0, 0.5),
    "bottomLeft": (0.0, 1.0),
    "bottom": (0.5, 1.0),
    "bottomRight": (1.0, 1.0),
}

# The page size limit of the engine (ISO 32000's 200 in), in points: no offset,
# margin or box needs to reach further.
MAX_EXTENT = 14_400.0
MAX_TEXT = 1_000


class Fields:
    """The fields of one JSON object at `path` (e.g. `operations[1]`)."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, Mapping):
            raise InvalidOperation(path, "must be an object")
        self.data: Mapping[str, Any] = data
        self.path = path
        self._read: set[str] = set()

    def at(self, name: str) -> str:
        return f"{self.path}.{name}"

    def fail(self, name: str, problem: str) -> InvalidOperation:
        return InvalidOperation(self.at(name), problem)

    def raw(self, name: str) -> Any:
        self._read.add(name)
        return self.data.get(name)

    def finish(self) -> None:
        """Refuse the fields no getter read."""
        for name in self.data:
            if name not in self._read:
                raise self.fail(name, "unknown field")

    def text(
        self, name: str, default: str | None = None, *, required: bool = False
    ) -> str | None:
        value = self.raw(name)
        if value is None:
            if required:
                raise self.fail(name, "is required")
            return default
        if not isinstance(value, str):
            raise self.fail(name, "must be a string")
        if len(value) > MAX_TEXT:
            raise self.fail(name, f"must be at most {MAX_TEXT} characters")
        return value

    def number(self, name: str, default: float, *, low: float, high: float) -> float:
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(name, "must be a number")
        if not math.isfinite(value) or not low <= value <= high:
            raise self.fail(name, f"must be between {low:g} and {high:g}")
        return float(value)

    def integer(self, name: str, default: int, *, low: int, high: int) -> int:
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(name, "must be an integer")
        if not low <= value <= high:
            raise self.fail(name, f"must be between {low} and {high}")
        return value

    def optional_integer(self, name: str, *, low: int, high: int) -> int | None:
        if self.data.get(name) is None:
            self._read.add(name)
            return None
        return self.integer(name, low, low=low, high=high)

    def boolean(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(name, "must be true or false")
        return value

    def choice(self, name: str, options: Sequence[str], default: str) -> str:
        value = self.raw(name)
        if value is None:
            return default
        if value not in options:
            raise self.fail(name, f"must be one of {', '.join(options)}")
        return str(value)

    def color(self, name: str, default: Rgb) -> Rgb:
        value = self.raw(name)
        if value is None:
            return default
        sub = Fields(value, self.at(name))
        rgb = Rgb(*(sub.integer(c, -1, low=0, high=255) for c in "rgb"))
        if -1 in (rgb.r, rgb.g, rgb.b):
            missing = next(
                c for c, v in zip("rgb", (rgb.r, rgb.g, rgb.b), strict=True) if v < 0
            )
            raise sub.fail(missing, "is required")
        sub.finish()
        return rgb

    def point(self, name: str) -> tuple[float, float]:
        """An {x, y} offset in points (x right, y down); (0, 0) when absent."""
        value = self.raw(name)
        if value is None:
            return (0.0, 0.0)
        sub = Fields(value, self.at(name))
        x = sub.number("x", 0.0, low=-MAX_EXTENT, high=MAX_EXTENT)
        y = sub.number("y", 0.0, low=-MAX_EXTENT, high=MAX_EXTENT)
        sub.finish()
        return (x, y)

    def box(self, name: str) -> Box:
        """A required {x, y, w, h} in points, top-left origin, w and h > 0."""
        value = self.raw(name)
        if value is None:
            raise self.fail(name, "is required")
        sub = Fields(value, self.at(name))
        x, y = (sub.number(k, 0.0, low=0, high=MAX_EXTENT) for k in "xy")
        w, h = (sub.number(k, 0.0, low=0, high=MAX_EXTENT) for k in "wh")
        for key, side in (("w", w), ("h", h)):
            if side <= 0:
                raise sub.fail(key, "must be greater than 0")
        sub.finish()
        return Box(x, y, w, h)

    def pages(self, name: str = "pages") -> tuple[PageRange, ...] | None:
        """Page selections of the output, {minPage, maxPage} counted from 1,
        inclusive (as `pagesSelectionList`); None (absent) means every page."""
        value = self.raw(name)
        if value is None:
            return None
        if not isinstance(value, list) or not value:
            raise self.fail(name, "must be a non-empty list of {minPage, maxPage}")
        ranges = []
        for n, item in enumerate(value):
            sub = Fields(item, f"{self.at(name)}[{n}]")
            first = sub.integer("minPage", 0, low=1, high=10**7)
            last = sub.integer("maxPage", first, low=1, high=10**7)
            if not first:
                raise sub.fail("minPage", "is required")
            if last < first:
                raise sub.fail("maxPage", "must not be less than minPage")
            sub.finish()
            ranges.append(PageRange(first, last))
        return tuple(ranges)

    def anchor(self, name: str = "position", default: str = "center") -> str:
        return self.choice(name, tuple(ANCHORS), default)
