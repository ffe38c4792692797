"""What every kind of order shares on the wire: read one (a long poll with
`timeoutMs`), wait until it ends with progress reports, list, delete.

Transformations, conversions and comparisons subclass `OrderResource` with their
path and the names of their id and result fields."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from transformsvc_client.core import Transport
from transformsvc_client.errors import OrderFailed, WaitTimeout
from transformsvc_client.shapes import Order, id_of

# Called with the order each time a long poll answers (at least every `poll_ms`).
Progress = Callable[[Order], None]

# The service caps a long poll at 60 s.
LONG_POLL_CAP_MS = 60_000
# Long polls while progress is shown: often enough for a person watching.
PROGRESS_POLL_MS = 2_000


class OrderResource:
    kind: ClassVar[str]
    collection: ClassVar[str]
    id_field: ClassVar[str]
    result_field: ClassVar[str]
    results_field: ClassVar[str | None] = None

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def order(self, data: Mapping[str, Any]) -> Order:
        """An `Order` from this kind's JSON."""
        results = data.get(self.results_field) if self.results_field else None
        return Order(
            kind=self.kind,
            id=id_of(data.get(self.id_field)) or "",
            state=str(data.get("currentState") or ""),
            error_message=data.get("errorMessage"),
            queued_ms=data.get("queuedTime"),
            processing_ms=data.get("processingTime"),
            result_id=id_of(data.get(self.result_field)),
            result_ids=tuple(
                oid for value in results or () if (oid := id_of(value)) is not None
            ),
            raw=dict(data),
        )

    def _create(self, payload: Mapping[str, Any]) -> str:
        answer = self.transport.json("POST", self.collection, payload=dict(payload))
        order_id = (
            id_of(answer.get(self.id_field)) if isinstance(answer, dict) else None
        )
        if not order_id:
            raise ValueError(f"the service answered no {self.id_field}: {answer!r}")
        return order_id

    def get(self, order_id: str, *, timeout_ms: int = 0) -> Order:
        """The order; with `timeout_ms`, answered as soon as it ends or after that
        many milliseconds (a long poll, capped at 60 000 by the service)."""
        wait_ms = max(0, min(timeout_ms, LONG_POLL_CAP_MS))
        data = self.transport.json(
            "GET",
            self.collection + Transport.path(order_id),
            query={"timeoutMs": wait_ms} if wait_ms else None,
            timeout=self.transport.timeout + wait_ms / 1000,
        )
        return self.order(data)

    def wait(
        self,
        order_id: str,
        *,
        progress: Progress | None = None,
        poll_ms: int | None = None,
        timeout: float | None = None,
    ) -> Order:
        """Long-poll until the order is PROCESSED or FAILED and answer it (a failed
        order is answered, not raised: see `wait_success`). `progress` is called
        after each poll; polls last `poll_ms` (2 s with progress, 60 s without).
        `timeout` in seconds raises `WaitTimeout` once passed."""
        if poll_ms is None:
            poll_ms = PROGRESS_POLL_MS if progress else LONG_POLL_CAP_MS
        started = time.monotonic()
        while True:
            budget = poll_ms
            if timeout is not None:
                left_ms = int((timeout - (time.monotonic() - started)) * 1000)
                budget = max(0, min(poll_ms, left_ms))
            order = self.get(order_id, timeout_ms=budget)
            if progress is not None:
                progress(order)
            if order.done:
                return order
            if timeout is not None and time.monotonic() - started >= timeout:
                raise WaitTimeout(order, timeout)

    def wait_success(
        self,
        order_id: str,
        *,
        progress: Progress | None = None,
        timeout: float | None = None,
    ) -> Order:
        """`wait`, raising `OrderFailed` when the order ends FAILED."""
        order = self.wait(order_id, progress=progress, timeout=timeout)
        if order.failed:
            raise OrderFailed(order)
        return order

    def recent(
        self, *, state: str | None = None, page: int = 1, page_size: int = 50
    ) -> list[Order]:
        """The caller's orders of this kind, newest first, one page of them."""
        data = self.transport.json(
            "GET",
            self.collection,
            query={"state": state, "page": page, "pageSize": page_size},
        )
        return [self.order(item) for item in data or ()]

    def delete(self, order_id: str) -> None:
        """Delete the order (a queued one is cancelled)."""
        self.transport.json("DELETE", self.collection + Transport.path(order_id))
