"""Claiming an Idempotency-Key before doing the work, and keeping the answer.

The row is inserted first (a unique (owner, key) index): of two concurrent
requests with one key, one inserts and works, the other finds the row and is
told the first is in progress (409) or, once it has answered, gets its answer.
The work itself runs outside any transaction of ours (an upload may take long);
a key whose request never answered (its process died) is free again after
LEASE. Answers of 5xx and 429 are not kept: the retry does the work.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from idempotency.models import IdempotencyKey
from transformsvc.conf import service
from transformsvc.problems import Conflict

LEASE = timedelta(minutes=15)
PURGE_EVERY = 300.0  # seconds, per process
_last_purge = 0.0


def _ttl() -> timedelta:
    return timedelta(seconds=service().idempotency_ttl)


def claim(*, owner_id: int | None, key: str, route: str) -> tuple[IdempotencyKey, bool]:
    """(the row of `key`, whether this request owns it and must do the work)."""
    _purge_now_and_then()
    for _ in range(3):
        now = timezone.now()
        try:
            with transaction.atomic():
                row = IdempotencyKey.objects.create(
                    owner_id=owner_id,
                    key=key,
                    route=route,
                    locked_until=now + LEASE,
                    expires_at=now + _ttl(),
                )
            return row, True
        except IntegrityError:
            pass
        found = IdempotencyKey.objects.filter(owner_id=owner_id, key=key).first()
        if found is None:
            continue  # released in between: claim it again
        if found.expires_at <= now or (
            found.status is None and found.locked_until <= now
        ):
            IdempotencyKey.objects.filter(
                pk=found.pk,
                expires_at=found.expires_at,
                locked_until=found.locked_until,
            ).delete()
            continue
        return found, False
    raise Conflict(
        "the Idempotency-Key is being claimed by another request; try again",
        headers={"Retry-After": "1"},
    )


def complete(
    row: IdempotencyKey,
    *,
    fingerprint: str,
    status: int,
    body: Any,
    location: str | None,
) -> None:
    IdempotencyKey.objects.filter(pk=row.pk).update(
        fingerprint=fingerprint, status=status, body=body, location=location
    )


def release(row: IdempotencyKey) -> None:
    """Forget the key: its request did nothing a retry should not do again."""
    IdempotencyKey.objects.filter(pk=row.pk, status__isnull=True).delete()


def purge_expired() -> int:
    deleted, _ = IdempotencyKey.objects.filter(expires_at__lt=timezone.now()).delete()
    return deleted


def _purge_now_and_then() -> None:
    global _last_purge
    if time.monotonic() - _last_purge > PURGE_EVERY:
        _last_purge = time.monotonic()
        purge_expired()
