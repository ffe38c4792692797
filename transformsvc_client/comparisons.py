"""Comparisons: the word-level text difference (`/difference`, answered at once)
and pixel comparison orders (`/comparisons`) whose result is a PDF with the
differences highlighted."""

from __future__ import annotations

from typing import Any

from transformsvc_client.orders import OrderResource


class Comparisons(OrderResource):
    kind = "comparison"
    collection = "/comparisons"
    id_field = "comparisonOrderId"
    result_field = "targetDocumentId"

    def create(
        self,
        left_id: str,
        right_id: str,
        *,
        fuzz: float | None = None,
        highlight_color: str | None = None,
        lowlight_color: str | None = None,
    ) -> str:
        """Order a pixel comparison; its id. `fuzz` is the colour tolerance in
        percent (0-100, 3 by default); colours are hex `RRGGBB`."""
        body: dict[str, Any] = {"leftDocumentId": left_id, "rightDocumentId": right_id}
        if fuzz is not None:
            body["fuzz"] = fuzz
        if highlight_color is not None:
            body["highlightColor"] = highlight_color
        if lowlight_color is not None:
            body["lowlightColor"] = lowlight_color
        return self._create(body)

    def difference(self, left_id: str, right_id: str) -> dict[str, Any]:
        """The text difference of two documents (`DocumentCompareResult`): its
        `textChanges` with their pages counted from 0."""
        data = self.transport.json(
            "GET",
            "/difference",
            query={"leftDocumentId": left_id, "rightDocumentId": right_id},
        )
        return dict(data)
