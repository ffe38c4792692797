"""Counting refused order requests (4xx answers to an order creation).

Every 4xx that a kind's create call answers (`jobs.api.OrderCollectionView`) is
recorded as an `OrderRefusal` with a short reason, read from the error's code, in
its own savepoint and never failing the answer. Reports read them from
`order_refusal_report`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.db import DatabaseError, models, transaction
from rest_framework import exceptions as drf_exceptions

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


def reason_of(exc: Exception, status: int, field: str) -> Reason:
    """A refusal's reason from the error's code, else its status and whether a
    field was at fault."""
    code = getattr(exc, "code", None)
    if code == "not_found":  # a create call names a document that is not there
        return Reason.UNKNOWN_DOCUMENT
    if code in Reason.values and code != Reason.INVALID_REQUEST:
        return Reason(code)
    if status in (401, 403):
        return Reason.NO_KEY
    if status == 429:
        return Reason.QUEUE_FULL
    if status == 413:
        return Reason.OVER_LIMIT
    if status == 415 or isinstance(exc, drf_exceptions.ParseError):
        return Reason.MALFORMED
    if status == 400:
        return Reason.INVALID_REQUEST if field else Reason.MALFORMED
    return Reason.OTHER


def record_refusal(
    kind: str, exc: Exception, status: int, body: Any, owner_id: int | None
) -> None:
    """Store why an order request of `kind` was refused (`exc`, answered with
    `status` and the problem `body`); a failure to store it is logged, never
    raised (the client gets its answer)."""
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
                reason=reason_of(exc, status, field),
                field=field,
                detail=detail[:300],
                owner_id=owner_id,
            )
    except DatabaseError:
        logger.warning("could not record a refused %s order", kind, exc_info=True)


def owner_or_none(request: Any) -> int | None:
    """The caller's owner id, None when its key itself was refused."""
    try:
        return request_owner_id(request)
    except drf_exceptions.APIException:
        return None
