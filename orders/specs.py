"""A transformation request as typed values: what services, the worker and the
engine take. The serializer builds them at the edge; the stored order keeps the
request as sent (normalised) for echoing it, and `spec_of` reads it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from documents.pdf.annotate import simple_name
from documents.pdf.types import Annotation, Box, PageRange, Point, Rgb


@dataclass(frozen=True, slots=True)
class ElementSpec:
    """A source of an output: a document, the page ranges taken from it (1-based,
    inclusive, in order; None = the whole document), its title inside a zip."""

    document_id: str
    ranges: tuple[PageRange, ...] | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True)
class OutputSpec:
    """One output document (a `transformationDetails` entry)."""

    elements: tuple[ElementSpec, ...]
    title: str | None = None


@dataclass(frozen=True, slots=True)
class OrderSpec:
    """`format` is pdf, pdf-fdf or zip; annotation pages count from 0 and refer to
    pages of their source document."""

    format: str
    outputs: tuple[OutputSpec, ...]
    annotations: tuple[Annotation, ...] = ()

    @property
    def document_ids(self) -> frozenset[str]:
        return frozenset(
            element.document_id
            for output in self.outputs
            for element in output.elements
        )


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
    )


# Annotation kinds that redact (simple names, as `Annotation.kind` holds them).
REDACTION_KINDS = frozenset({"RedactElemType", "RedactTextElemType"})


def operations_of(spec: OrderSpec) -> dict[str, Any]:
    """What an order does, as the order's flag columns: redacts, annotates (other
    annotations), merges (an output takes pages of two documents or more), and
    its number of outputs. Zip is its format."""
    return {
        "redacts": any(a.kind in REDACTION_KINDS for a in spec.annotations),
        "annotates": any(a.kind not in REDACTION_KINDS for a in spec.annotations),
        "merges": any(
            len({element.document_id for element in output.elements}) > 1
            for output in spec.outputs
        ),
        "output_count": len(spec.outputs),
    }


def pages_taken(element: ElementSpec, page_count: int | None) -> int | None:
    """Pages an element takes from its document (all of them without ranges)."""
    if element.ranges is None:
        return page_count
    return sum(r.last - r.first + 1 for r in element.ranges)
