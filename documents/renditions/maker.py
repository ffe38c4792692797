"""The one hook from documents to whoever makes renditions.

A document that needs a worker to become readable (an Office file to convert,
an e-mail to unpack, a scan to recognise) is stored with a request for its
rendition in the same transaction: `maker().request(document)`. The app that
makes renditions (conversions, with a conversion order per document) registers
itself in its `AppConfig.ready()`; documents never imports it. Without one the
service cannot make documents readable, and says so at once.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from django.core.exceptions import ImproperlyConfigured

from documents.models import Document


class RenditionMaker(Protocol):
    def request(self, document: Document) -> None:
        """Owe `document` its rendition: called inside the transaction that stores
        it, so that both commit together or neither does."""

    def order_ids(self, document: Document) -> dict[str, str]:
        """{format: id} of the conversion orders made for `document`, the latest
        per format (GET /documents/<id> reports them as `conversionOrderIds`)."""

    def under_way(self, document_ids: Collection[str]) -> set[str]:
        """Which of `document_ids` have a rendition being made (an order that has
        not ended)."""


_maker: RenditionMaker | None = None


def register_maker(maker: RenditionMaker) -> None:
    global _maker
    _maker = maker


def maker() -> RenditionMaker:
    if _maker is None:
        raise ImproperlyConfigured(
            "no app makes renditions: add 'conversions' to INSTALLED_APPS"
        )
    return _maker
