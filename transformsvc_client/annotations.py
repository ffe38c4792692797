"""The annotation store (`/annotation`) and builders of the annotations orders
take. Annotation pages count from 0; positions are points, top-left origin of the
displayed page."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from transformsvc_client.core import Transport
from transformsvc_client.shapes import Box, SearchHit

# Annotation types are recognised by their simple name whatever the prefix.
TYPE_PREFIX = "com.vendor.viewer.annotation.api."


def redact_text(
    document_id: str,
    hits: Sequence[SearchHit],
    *,
    color: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Text redactions (`RedactTextElemType`) of search hits: one per page, its
    `coords` the hits' boxes on that page."""
    by_page: dict[int, list[Box]] = {}
    for hit in hits:
        by_page.setdefault(hit.page, []).append(hit.box)
    annotations = []
    for page, boxes in sorted(by_page.items()):
        annotation: dict[str, Any] = {
            "type": TYPE_PREFIX + "RedactTextElemType",
            "id": {"id": str(uuid.uuid4())},
            "documentId": {"id": document_id},
            "page": page,
            "coords": [box.to_json() for box in boxes],
        }
        if color is not None:
            annotation["color"] = dict(color)
        annotations.append(annotation)
    return annotations


def redact_zone(document_id: str, page: int, box: Box) -> dict[str, Any]:
    """A zone redaction (`RedactElemType`) of `box` on `page` (from 0)."""
    return {
        "type": TYPE_PREFIX + "RedactElemType",
        "id": {"id": str(uuid.uuid4())},
        "documentId": {"id": document_id},
        "page": page,
        "position": box.to_json(),
    }


class Annotations:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def _call(
        self,
        method: str,
        document_id: str,
        annotations: Sequence[Mapping[str, Any]] | None,
    ) -> list[dict[str, Any]]:
        payload = None if annotations is None else {"annotations": list(annotations)}
        data = self.transport.json(
            method, "/annotation", query={"documentId": document_id}, payload=payload
        )
        return list((data or {}).get("annotations") or [])

    def stored(self, document_id: str) -> list[dict[str, Any]]:
        """The annotations stored for the document."""
        return self._call("GET", document_id, None)

    def save(
        self, document_id: str, annotations: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Store annotations (one whose id is stored replaces it); answers them as
        stored, with their ids."""
        return self._call("PUT", document_id, annotations)

    def update(
        self, document_id: str, annotations: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Replace stored annotations by id (an unknown id raises a 404 problem)."""
        return self._call("POST", document_id, annotations)

    def delete(self, document_id: str, ids: Sequence[str]) -> list[dict[str, Any]]:
        """Remove the annotations with these ids; answers the removed ones."""
        return self._call("DELETE", document_id, [{"id": i} for i in ids])

    def policy(self, document_id: str | None = None) -> dict[str, Any]:
        """The annotation policy, redaction reasons and the types orders accept."""
        data = self.transport.json(
            "GET", "/annotation/policy", query={"documentId": document_id}
        )
        return dict(data or {})
