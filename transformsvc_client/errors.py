"""What the client raises: one base class, a typed problem, an unreachable service,
an order that failed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from transformsvc_client.shapes import Order


class ClientError(Exception):
    """Base of every error this client raises."""


class ServiceUnreachable(ClientError):
    """No HTTP answer at all: connection refused, DNS failure, time-out."""

    def __init__(self, base_url: str, reason: str) -> None:
        super().__init__(f"cannot reach the service at {base_url}: {reason}")
        self.base_url = base_url
        self.reason = reason


class ProblemError(ClientError):
    """The service answered 4xx/5xx: an RFC 9457 problem (or a body that stands in
    for one when a proxy answered instead of the service).

    `errors` maps a field path of the request (`transformationDetails[0]...`) to its
    messages; it is empty when the problem names no field."""

    def __init__(
        self,
        *,
        status: int,
        title: str,
        detail: str,
        errors: Mapping[str, Sequence[str]] | None = None,
        type: str = "about:blank",
        request_id: str | None = None,
        body: Mapping[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.title = title
        self.detail = detail
        self.errors: dict[str, list[str]] = {
            field: list(messages) for field, messages in (errors or {}).items()
        }
        self.type = type
        self.request_id = request_id
        self.body: dict[str, Any] = dict(body or {})
        # Seconds the service asked the caller to wait (`Retry-After`, 429/503).
        self.retry_after = retry_after
        super().__init__(self.message())

    def message(self) -> str:
        """One line for people: the detail, else the title, with the status."""
        text = self.detail or self.title or "no detail given"
        return f"{text} (HTTP {self.status})"

    @classmethod
    def from_body(
        cls,
        status: int,
        reason: str,
        body: bytes,
        *,
        request_id: str | None = None,
        retry_after: str | None = None,
    ) -> ProblemError:
        """A problem+json body as the service sends it; any other body (an HTML
        page from a proxy) becomes its first 300 characters as the detail."""
        try:
            pause = float(retry_after) if retry_after is not None else None
        except ValueError:  # an HTTP date: not sent by this service
            pause = None
        try:
            parsed = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            parsed = None
        if not isinstance(parsed, dict):
            text = body.decode("utf-8", errors="replace").strip()[:300]
            return cls(
                status=status,
                title=reason,
                detail=text,
                request_id=request_id,
                retry_after=pause,
            )
        errors = parsed.get("errors")
        return cls(
            status=int(parsed.get("status") or status),
            title=str(parsed.get("title") or reason),
            detail=str(parsed.get("detail") or ""),
            errors=_field_errors(errors),
            type=str(parsed.get("type") or "about:blank"),
            request_id=parsed.get("requestId") or request_id,
            body=parsed,
            retry_after=pause,
        )


def _field_errors(errors: object) -> dict[str, list[str]]:
    if not isinstance(errors, dict):
        return {}
    return {
        str(field): [str(m) for m in (msgs if isinstance(msgs, list) else [msgs])]
        for field, msgs in errors.items()
    }


class OrderFailed(ClientError):
    """An order ended FAILED; `order` is the order as the service reported it."""

    def __init__(self, order: Order) -> None:
        self.order = order
        message = order.error_message or "no error message given"
        super().__init__(f"{order.kind} order {order.id} failed: {message}")


class WaitTimeout(ClientError):
    """An order had not ended when the caller's own deadline passed."""

    def __init__(self, order: Order, seconds: float) -> None:
        self.order = order
        super().__init__(
            f"{order.kind} order {order.id} is still {order.state} after {seconds:g} s"
        )
