"""The wire form of a transformation request, read into its typed spec: the
only place that knows the request's camelCase names besides the serializers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.pdf.annotate import simple_name
from engines.pdf.types import Annotation, Box, PageRange, Point, Rgb
from orders.specs import ElementSpec, OrderSpec, OutputSpec


def spec_of(format: str, request: Mapping[str, Any]) -> OrderSpec:
    """The spec of a normalised request: `{"transformationDetails": [...],
    "annotations": {"annotations": [...]} | None}` with ids as `{"id": ...}`."""
    return OrderSpec(
        format=format,
        outputs=tuple(_output(d) for d in request["transformationDetails"]),
        annotations=tuple(
            _annotation(item)
            for item in (request.get("annotations") or {}).get("annotations") or []
        ),
    )


def _output(detail: Mapping[str, Any]) -> OutputSpec:
    return OutputSpec(
        elements=tuple(
            ElementSpec(
                document_id=el["documentId"]["id"],
                ranges=tuple(
                    PageRange(r["minPage"], r["maxPage"])
                    for r in el["pagesSelectionList"]
                )
                if el.get("pagesSelectionList")
                else None,
                title=el.get("documentTitle"),
            )
            for el in detail["transformationElements"]
        ),
        title=detail.get("documentTitle"),
    )


def _rgb(value: Mapping[str, int] | None) -> Rgb | None:
    return Rgb(value["r"], value["g"], value["b"]) if value else None


def _box(value: Mapping[str, float] | None) -> Box | None:
    return Box(value["x"], value["y"], value["w"], value["h"]) if value else None


def _point(value: Mapping[str, float] | None) -> Point | None:
    return Point(value["x"], value["y"]) if value else None


def _annotation(item: Mapping[str, Any]) -> Annotation:
    """An echoed annotation (every wire field present) → the engine's dataclass."""
    ident = item.get("id")
    rich = item.get("contentsRichtext") or {}
    return Annotation(
        kind=simple_name(item["type"]),
        document_key=item["documentId"]["id"],
        page=int(item["page"]),
        annotation_id=ident.get("id") if isinstance(ident, dict) else ident,
        position=_box(item.get("position")),
        coords=tuple(b for b in (_box(c) for c in item.get("coords") or []) if b),
        color=_rgb(item.get("color")),
        interior_color=_rgb(item.get("interiorColor")),
        opacity=item.get("opacity"),
        width=item.get("width"),
        contents=item.get("contents"),
        rich_text=rich.get("value") if isinstance(rich, dict) else None,
        creator=item.get("creator"),
        creation_date=item.get("creationDate"),
        icon=item.get("icon"),
        start=_point(item.get("start")),
        end=_point(item.get("end")),
        head=item.get("head"),
        tail=item.get("tail"),
        default_appearance=item.get("defaultappearance"),
        overlay_text=item.get("overlayText") or item.get("reason") or None,
    )
