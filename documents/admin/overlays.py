"""What the admin's viewer draws over a document's pages: stored annotations,
and the areas a redaction will remove, as plain shapes.

Other apps own that data (the annotation store, the orders' requests) and the
documents app imports neither of them: an app that has shapes to draw provides
a function with `provide` when its admin loads (as jobs.admin.documents does the
other way round). Shapes come from the annotation JSON of the interface (type,
page from 0, position {x, y, w, h} and coords in points, top-left origin of the
displayed page), whoever stored it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from documents.models import Document

ANNOTATIONS, REDACTIONS = "annotations", "redactions"
# Drawn at most, per document: a page's worth of shapes is a few dozen.
MOST = 5000


@dataclass(frozen=True, slots=True)
class Shape:
    """One thing drawn over a page, in points of the displayed page (top-left
    origin). `kind`: box, ellipse, line, note, text, redaction."""

    page: int  # from 0
    kind: str
    boxes: tuple[tuple[float, float, float, float], ...]  # x, y, w, h
    layer: str  # ANNOTATIONS or REDACTIONS
    label: str  # what people read on hover
    stroke: str | None = None  # "#rrggbb"
    fill: str | None = None
    opacity: float = 1.0
    line: tuple[float, float, float, float] | None = None  # x1, y1, x2, y2
    text: str = ""

    def as_json(self) -> dict[str, Any]:
        """The compact form the viewer's script reads."""
        out: dict[str, Any] = {
            "p": self.page,
            "k": self.kind,
            "b": [[round(v, 2) for v in box] for box in self.boxes],
            "l": self.layer,
            "t": self.label,
            "o": self.opacity,
        }
        for key, value in (
            ("s", self.stroke),
            ("f", self.fill),
            ("ln", self.line),
            ("x", self.text),
        ):
            if value:
                out[key] = value
        return out


Provider = Callable[[Document], Iterable[Shape]]
_providers: dict[str, Provider] = {}


def provide(name: str, provider: Provider) -> None:
    """Called by an app's admin when it loads; `name` keeps a reload from adding
    the same provider twice."""
    _providers[name] = provider


def shapes(doc: Document) -> list[Shape]:
    """Every shape the providers have for `doc`, at most `MOST`."""
    found: list[Shape] = []
    for provider in _providers.values():
        found.extend(provider(doc))
        if len(found) >= MOST:
            break
    return found[:MOST]


# --- annotation JSON → shapes ------------------------------------------------------


def _box(value: Any) -> tuple[float, float, float, float] | None:
    if not isinstance(value, Mapping):
        return None
    try:
        return (
            float(value["x"]),
            float(value["y"]),
            float(value["w"]),
            float(value["h"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def _color(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return None
    try:
        r, g, b = (max(0, min(255, int(value[c]))) for c in "rgb")
    except (KeyError, TypeError, ValueError):
        return None
    return f"#{r:02x}{g:02x}{b:02x}"


def _opacity(value: Any) -> float:
    try:
        return max(0.05, min(1.0, float(value)))
    except (TypeError, ValueError):
        return 1.0


def _point(value: Any) -> tuple[float, float] | None:
    if not isinstance(value, Mapping):
        return None
    try:
        return float(value["x"]), float(value["y"])
    except (KeyError, TypeError, ValueError):
        return None


def annotation_id(data: Mapping[str, Any]) -> str:
    ident = data.get("id")
    if isinstance(ident, Mapping):
        ident = ident.get("id")
    return str(ident) if ident else ""


def from_annotation(data: Mapping[str, Any], source: str) -> Shape | None:
    """The shape of one annotation as the interface writes it; `source` says
    where it comes from ("stored annotation", "order 3f2a…"). None for an
    annotation without a place on a page."""
    kind = str(data.get("type", "")).rsplit(".", 1)[-1]
    try:
        page = int(data.get("page", -1))
    except (TypeError, ValueError):
        return None
    position = _box(data.get("position"))
    name = f"{kind.removesuffix('ElemType') or 'annotation'} {annotation_id(data)}"
    label = f"{name.strip()} ({source})"
    if kind in ("RedactElemType", "RedactTextElemType"):
        boxes = [position] if kind == "RedactElemType" else []
        boxes += [_box(c) for c in data.get("coords") or []]
        found = tuple(b for b in boxes if b)
        if not found or page < 0:
            return None
        return Shape(page, "redaction", found, REDACTIONS, f"will be removed: {label}")
    if page < 0:
        return None
    opacity = _opacity(data.get("opacity", 1))
    text = str(data.get("contents") or "")[:200]
    if kind == "LineElemType":
        start, end = _point(data.get("start")), _point(data.get("end"))
        if start is None or end is None:
            return None
        return Shape(
            page,
            "line",
            (),
            ANNOTATIONS,
            label,
            stroke=_color(data.get("color")) or "#dc2626",
            opacity=opacity,
            line=(*start, *end),
            text=text,
        )
    if position is None:
        return None
    stroke = _color(data.get("color"))
    fill = _color(data.get("interiorColor"))
    shape = {
        "SquareElemType": "box",
        "CircleElemType": "ellipse",
        "FreetextElemType": "text",
        "TextElemType": "note",
    }.get(kind, "box")
    if shape == "box" and not (stroke or fill):
        stroke = "#2563eb"
    return Shape(
        page,
        shape,
        (position,),
        ANNOTATIONS,
        label,
        stroke=stroke,
        fill=fill,
        opacity=opacity,
        text=text,
    )
