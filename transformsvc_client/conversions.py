"""Conversion orders (`/conversions`): a document in another format (pdf; docx,
odt, xlsx, pptx... through LibreOffice; txt, png, jpg of the pages). The result
downloads with `Documents.download(document_id, dest, format=<format>)`."""

from __future__ import annotations

from transformsvc_client.core import Transport
from transformsvc_client.orders import OrderResource
from transformsvc_client.shapes import Order


class Conversions(OrderResource):
    kind = "conversion"
    collection = "/conversions"
    id_field = "conversionOrderId"
    result_field = "conversionResultDocumentID"

    def create(
        self, document_id: str, format: str, *, callback_url: str | None = None
    ) -> str:
        """Order `document_id` in `format` (a short name: pdf, docx, png...); the
        order's id. A second order for a format already made reuses it."""
        body: dict[str, str] = {"documentId": document_id, "format": format}
        if callback_url is not None:
            body["callbackUrl"] = callback_url
        return self._create(body)

    def of_document(self, document_id: str) -> list[Order]:
        """The conversion orders of one document (`/documents/<id>/conversions`)."""
        data = self.transport.json(
            "GET", "/documents" + Transport.path(document_id) + "/conversions"
        )
        return [self.order(item) for item in data or ()]
