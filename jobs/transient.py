"""Faults that a later attempt can cure: the database, the broker or the store
out of reach for a moment, a converter restarting, a full disk being freed.

Work that meets one is tried again after a pause instead of failing for good;
what is still failing after the last pause fails with a message that says the
fault was passing and the order may be retried.
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.db import InterfaceError, OperationalError, connections

from engines.errors import EngineError

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Pauses between attempts of an order's build, then of the UPDATE that ends it.
BUILD_PAUSES = (2.0, 5.0, 10.0)
WRITE_PAUSES = (1.0, 2.0, 4.0, 8.0, 8.0, 8.0)

_PASSING_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.ECONNREFUSED})


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, EngineError):
        return exc.transient
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    if isinstance(exc, OSError) and exc.errno in _PASSING_ERRNOS:
        return True
    kind = type(exc)
    # The broker (redis-py) and the object store (botocore) out of reach.
    return kind.__module__.startswith(("redis.", "botocore.")) and any(
        word in kind.__name__ for word in ("Connection", "Timeout", "Endpoint")
    )


def reset_connections() -> None:
    """Drop database connections a fault may have broken: the next query opens a
    fresh one. A connection inside a transaction is left to its owner (workers
    build outside transactions)."""
    for connection in connections.all(initialized_only=True):
        if connection.in_atomic_block:
            continue
        try:
            connection.close()
        except Exception:  # already broken: nothing to release
            pass


def retrying(work: Callable[[], T], pauses: Sequence[float], what: str) -> T:
    """`work()`, tried again after each pause while it fails transiently."""
    for pause in pauses:
        try:
            return work()
        except Exception as exc:
            if not is_transient(exc):
                raise
            logger.warning(
                "%s met a passing fault (%s); again in %s s", what, exc, pause
            )
            reset_connections()
            time.sleep(pause)
    return work()
