"""What the converter pool (engines/convert, LibreOffice) reports, as metrics.

The pool is an engine: it imports neither Django nor prometheus-client, nor this
module. It accepts an observer with the three methods of `PoolObserver` (a
structural type: it may declare the same Protocol itself) and calls them; the
Django side that builds the pool hands it `POOL_METRICS`:

    from ops.metrics.conversion import POOL_METRICS
    pool = process_pool(PoolSettings(...), POOL_METRICS)

Calls are cheap (a write to a memory-mapped file) and never raise.
"""

from __future__ import annotations

import logging
from typing import Protocol

from transformsvc.metrics import (
    CONVERSION_INSTANCES,
    CONVERSION_RESTARTS,
    CONVERSION_TIMEOUTS,
)

logger = logging.getLogger(__name__)


class PoolObserver(Protocol):
    def instances(self, count: int) -> None:
        """The pool of this process now runs `count` converter instances."""

    def restarted(self, reason: str) -> None:
        """An instance was replaced; `reason` is a short word (crash, timeout,
        recycle), one of a few, as it becomes a label."""

    def timed_out(self) -> None:
        """A conversion was stopped at its time limit."""


class PoolMetrics:
    """`PoolObserver` writing the conversion pool's metrics."""

    def instances(self, count: int) -> None:
        try:
            CONVERSION_INSTANCES.set(count)
        except Exception:  # metrics never break a conversion
            logger.exception("conversion pool metrics failed")

    def restarted(self, reason: str) -> None:
        try:
            CONVERSION_RESTARTS.labels(reason[:32] or "unknown").inc()
        except Exception:
            logger.exception("conversion pool metrics failed")

    def timed_out(self) -> None:
        try:
            CONVERSION_TIMEOUTS.inc()
        except Exception:
            logger.exception("conversion pool metrics failed")


POOL_METRICS: PoolObserver = PoolMetrics()
