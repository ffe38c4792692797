"""Counting refused order requests (4xx answers to an order creation).

A kind's create view mixes in `CountsRefusals` and names its kind: every 4xx it
answers is recorded as an `OrderRefusal` with a short reason, in its own savepoint
and never failing the answer. Reports read them from `order_refusal_report`.
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

from django.db import DatabaseError, models, transaction
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

from accounts.auth import request_owner_id
from jobs.models import OrderRefusal

logger = logging.getLogger(__name__)


class Reason(models.TextChoices):
    UNKNOWN_DOCUMENT = "unknown_document", "Unknown document"
    UNREADABLE_DOCUMENT = "unreadable_document", "Document not a readable PDF"
    PAGE_OUT_OF_RANGE = "page_out_of_range", "Page out of range"
    OVER_LIMIT = "over_limit", "Over a limit"
    INVALID_REQUEST = "invalid_request", "Invalid request"
    MALFORMED = "malformed", "Malformed body"
    NO_KEY = "no_key", "Missing or bad API key"
    QUEUE_FULL = "queue_full", "Queue full"
    DISK_FULL = "disk_full", "Disk full"
    OTHER = "other", "Other"


_INDEX = re.compile(r"\[\d+\]")


def field_of(errors: dict[str, list[str]] | None) -> str:
    """The first field at fault, list indexes folded: `a[].b[].maxPage`."""
    if not errors:
        return ""
    return _INDEX.sub("[]", next(iter(errors)))[:200]


def reason_of(status: int, detail: str, field: str) -> Reason:
    """A refusal's reason from its status, the message and the field at fault."""
    text = detail.lower()
    if status in (401, 403):
        return Reason.NO_KEY
    if status == 429:
        return Reason.QUEUE_FULL
    if status == 503:
        return Reason.DISK_FULL
    if status == 413:
        return Reason.OVER_LIMIT
    if status == 415 or "json" in text and "parse" in text:
        return Reason.MALFORMED
    if "no document with id" in text or "not one of the order's documents" in text:
        return Reason.UNKNOWN_DOCUMENT
    if "not a readable pdf" in text:
        return Reason.UNREADABLE_DOCUMENT
    if "past the end" in text or "does not exist in document" in text:
        return Reason.PAGE_OUT_OF_RANGE
    if "at most" in text:
        return Reason.OVER_LIMIT
    if status == 400 and field:
        return Reason.INVALID_REQUEST
    if status == 400:
        return Reason.MALFORMED
    return Reason.OTHER


def record_refusal(kind: str, status: int, body: Any, owner_id: int | None) -> None:
    """Store why an order request of `kind` was refused, from its problem `body`;
    a failure to store it is logged, never raised (the client gets its answer)."""
    if not 400 <= status < 500:
        return
    body = body if isinstance(body, dict) else {}
    detail = str(body.get("detail") or "")
    field = field_of(body.get("errors"))
    try:
        with transaction.atomic():
            OrderRefusal.objects.create(
                kind=kind,
                status=status,
                reason=reason_of(status, detail, field),
                field=field,
                detail=detail[:300],
                owner_id=owner_id,
            )
    except DatabaseError:
        logger.warning("could not record a refused %s order", kind, exc_info=True)


class CountsRefusals:
    """Mixin for an APIView that creates orders of `refusal_kind`: every 4xx it
    answers is counted (see module docstring)."""

    refusal_kind: ClassVar[str]

    def handle_exception(self, exc: Exception) -> Response:
        response: Response = super().handle_exception(exc)  # type: ignore[misc]
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            record_refusal(
                self.refusal_kind,
                response.status_code,
                response.data,
                _owner_id(request),
            )
        return response


def _owner_id(request: Any) -> int | None:
    try:
        return request_owner_id(request)
    except drf_exceptions.APIException:  # the key itself was refused: no owner
        return None
