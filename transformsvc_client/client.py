"""`Client`: one object holding the core and a resource per kind of thing the
service keeps."""

from __future__ import annotations

from typing import Any

from transformsvc_client.annotations import Annotations
from transformsvc_client.comparisons import Comparisons
from transformsvc_client.conversions import Conversions
from transformsvc_client.core import DEFAULT_TIMEOUT, Transport
from transformsvc_client.documents import Documents
from transformsvc_client.orders import Progress
from transformsvc_client.shapes import DocumentInfo
from transformsvc_client.transformations import Transformations


class Client:
    """The service at `base_url` (else `TRANSFORMSVC_URL`, else
    http://127.0.0.1:8761) with the bearer `key` (else `TRANSFORMSVC_KEY`).

    >>> client = Client()
    >>> doc = client.documents.upload("paper.pdf", title="paper")
    >>> hits = client.documents.search(doc, "Acme")
    """

    def __init__(
        self,
        base_url: str | None = None,
        key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.transport = Transport(base_url, key, timeout=timeout)
        self.documents = Documents(self.transport)
        self.transformations = Transformations(self.transport)
        self.conversions = Conversions(self.transport)
        self.comparisons = Comparisons(self.transport)
        self.annotations = Annotations(self.transport)

    @property
    def base_url(self) -> str:
        return self.transport.base_url

    def health(self) -> dict[str, Any]:
        """`/health`: the process and its database (no key needed)."""
        return dict(self.transport.json("GET", "/health") or {})

    def wait_readable(
        self, document_id: str, *, progress: Progress | None = None
    ) -> DocumentInfo:
        """Wait until the document's pages can be read: a PDF or an image at once;
        anything else once the conversion order that makes its PDF has ended
        (`OrderFailed` when it failed)."""
        info = self.documents.info(document_id)
        order_id = info.conversion_order_ids.get("pdf")
        if order_id and info.format != "pdf":
            self.conversions.wait_success(order_id, progress=progress)
            info = self.documents.info(document_id)
        return info
