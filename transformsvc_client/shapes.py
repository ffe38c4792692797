"""What the client answers: frozen dataclasses built from the service's JSON.

Geometry is in points on the page as displayed (origin top-left, `/Rotate`
applied). Page indexes count from 0, as on the wire; `SearchHit.page_label` is the
page number for people, counted from 1. Each object keeps the JSON it was read from
in `raw`, for the fields this client does not name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The states every kind of order goes through; the last two are final.
QUEUED, PROCESSING, PROCESSED, FAILED = "QUEUED", "PROCESSING", "PROCESSED", "FAILED"
FINAL_STATES = frozenset({PROCESSED, FAILED})


def id_of(value: object) -> str | None:
    """A document or order id as the wire writes it: `{"id": ...}` or a string."""
    if isinstance(value, Mapping):
        value = value.get("id")
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in points: (x, y) its top-left corner on the displayed page."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Box:
        return cls(
            float(data["x"]), float(data["y"]), float(data["w"]), float(data["h"])
        )

    def to_json(self) -> dict[str, float]:
        return {"x": self.x, "y": self.y, "w": self.w, "h": self.h}


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One match on one line: `page` from 0, `box` ready to be redaction coords."""

    page: int
    text: str
    box: Box
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def page_label(self) -> int:
        """The page number for people (from 1)."""
        return self.page + 1

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchHit:
        position = data["positionText"]
        return cls(
            page=int(position["pageNumber"]),
            text=str(position["text"]),
            box=Box.from_json(position["position"]),
            raw=dict(data),
        )


@dataclass(frozen=True, slots=True)
class PageSize:
    """A page as displayed: width and height in points (whole), rotation in degrees
    clockwise, dpi 72 for PDFs (an image's own resolution otherwise)."""

    width: int
    height: int
    rotation: int
    dpi: int


@dataclass(frozen=True, slots=True)
class Layout:
    """A document's pages, or a container's parts (`children`, each a Layout)."""

    document_id: str
    title: str | None
    mime_type: str
    pages: tuple[PageSize, ...]
    children: tuple[Layout, ...]
    rendition_error: str | None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_container(self) -> bool:
        return "children" in self.raw

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Layout:
        return cls(
            document_id=id_of(data.get("documentId")) or "",
            title=data.get("documentTitle"),
            mime_type=str(data.get("mimeType") or ""),
            pages=tuple(
                PageSize(
                    width=int(p["width"]),
                    height=int(p["height"]),
                    rotation=int(p.get("rotation") or 0),
                    dpi=int(p.get("dpi") or 72),
                )
                for p in data.get("pageDimensionsList") or ()
            ),
            children=tuple(cls.from_json(c) for c in data.get("children") or ()),
            rendition_error=data.get("renditionError"),
            raw=dict(data),
        )


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """`GET /documents/<id>`: `format` is the upload's own (pdf, docx, eml...);
    `conversion_order_ids` maps a format to the conversion order making it."""

    id: str
    title: str | None
    format: str
    mime_type: str
    size: int | None
    sha256: str | None
    page_count: int | None
    conversion_order_ids: dict[str, str]
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DocumentInfo:
        orders = data.get("conversionOrderIds") or {}
        return cls(
            id=id_of(data.get("id") or data.get("documentId")) or "",
            title=data.get("title", data.get("documentTitle")),
            format=str(data.get("format") or ""),
            mime_type=str(data.get("mimeType") or ""),
            size=data.get("size"),
            sha256=data.get("sha256"),
            page_count=data.get("pageCount"),
            conversion_order_ids={
                str(fmt): oid
                for fmt, value in orders.items()
                if (oid := id_of(value)) is not None
            },
            raw=dict(data),
        )


@dataclass(frozen=True, slots=True)
class Order:
    """Any kind of order (transformation, conversion, comparison) as its GET
    answers it. Times are milliseconds (running totals while it is under way)."""

    kind: str
    id: str
    state: str
    error_message: str | None
    queued_ms: int | None
    processing_ms: int | None
    result_id: str | None
    result_ids: tuple[str, ...]
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def done(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def failed(self) -> bool:
        return self.state == FAILED
