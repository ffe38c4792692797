"""Transformation orders (`/transformations`): build documents from page
selections of others, merge, burn or attach annotations, redact, zip.

The request builders below write the wire shape; pages in `pages` count from 1
(`minPage`/`maxPage`, inclusive), annotation pages from 0."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from transformsvc_client.orders import OrderResource


class PageSelection(TypedDict):
    minPage: int
    maxPage: int


class Element(TypedDict):
    documentId: str
    pagesSelectionList: NotRequired[list[PageSelection]]
    documentTitle: NotRequired[str]


class Detail(TypedDict):
    transformationElements: list[Element]
    documentTitle: NotRequired[str]


def element(
    document_id: str,
    pages: Sequence[tuple[int, int]] | None = None,
    *,
    title: str | None = None,
) -> Element:
    """One source of an output: `pages` are (first, last) ranges counted from 1,
    inclusive, taken in order (None: the whole document); `title` names its entry
    in a zip."""
    item: Element = {"documentId": document_id}
    if pages is not None:
        item["pagesSelectionList"] = [{"minPage": a, "maxPage": b} for a, b in pages]
    if title is not None:
        item["documentTitle"] = title
    return item


def output(elements: Sequence[Element], *, title: str | None = None) -> Detail:
    """One output document: its sources joined in order."""
    detail: Detail = {"transformationElements": list(elements)}
    if title is not None:
        detail["documentTitle"] = title
    return detail


def request(
    outputs: Sequence[Detail],
    *,
    format: str = "pdf",
    annotations: Sequence[Mapping[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A `POST /transformations` body: `format` pdf, pdf-fdf or zip; `extra`
    adds fields this client does not name (camelCase, as the wire spells them)."""
    body: dict[str, Any] = {"format": format, "transformationDetails": list(outputs)}
    if annotations is not None:
        body["annotations"] = {"annotations": [dict(a) for a in annotations]}
    body.update(extra)
    return body


class Transformations(OrderResource):
    kind = "transformation"
    collection = "/transformations"
    id_field = "transformationOrderId"
    result_field = "transformationResultDocumentID"
    results_field = "transformationResultDocumentIDs"

    def create(self, body: Mapping[str, Any]) -> str:
        """POST an order (see `request`); its id. Refused requests raise
        `ProblemError` naming the field at fault."""
        return self._create(body)
