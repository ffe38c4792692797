"""Waking long polls when an order ends: PostgreSQL LISTEN/NOTIFY, polling elsewhere.

A waiting request holds no database connection: one listener thread per process
owns a dedicated connection and wakes the waiters of the order that ended.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from django.db import connection, connections

from jobs.states import FINAL_STATES

logger = logging.getLogger(__name__)

CHANNEL = "transformsvc_orders"
# Waiters re-read the order this often even without a notification (a safety net).
RECHECK_LISTENING = 2.0
RECHECK_POLLING = 0.25


def notify_final(key: str) -> None:
    """Tell every process's listener that what `key` names (an order, a document's
    rendition) has reached a final state; sent at commit inside a transaction."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, key])


# Keys of Django's connection parameters that are its own, not libpq's (sslmode,
# sslrootcert, options, connect_timeout, service... all pass through).
_DJANGO_ONLY = frozenset(
    {
        "cursor_factory",
        "context",
        "prepare_threshold",
        "pool",
        "server_side_binding",
        "isolation_level",
        "assume_role",
    }
)


def listening_connection(channel: str, alias: str = "default") -> Any:
    """A new autocommit psycopg connection to the database of `alias`, listening on
    `channel` (its own: Django's connections come and go with requests)."""
    import psycopg

    params = connections[alias].get_connection_params()
    libpq = {k: v for k, v in params.items() if k not in _DJANGO_ONLY}
    conn = psycopg.connect(autocommit=True, **libpq)
    try:
        conn.execute(f"LISTEN {channel}")
    except Exception:
        conn.close()
        raise
    return conn


class Listener:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = defaultdict(set)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.listening = threading.Event()

    def subscribe(self, order_id: str) -> threading.Event:
        self._ensure_started()
        event = threading.Event()
        with self._lock:
            self._waiters[order_id].add(event)
        return event

    def unsubscribe(self, order_id: str, event: threading.Event) -> None:
        with self._lock:
            waiters = self._waiters.get(order_id)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._waiters[order_id]

    def _wake(self, order_id: str) -> None:
        with self._lock:
            for event in self._waiters.get(order_id, ()):
                event.set()

    def _ensure_started(self) -> None:
        if connection.vendor != "postgresql" or self._thread is not None:
            return
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="order-listener", daemon=True
                )
                self._thread.start()

    def stop(self) -> None:
        """Stop the listener thread (it closes its connection); a later wait restarts it."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        thread.join(timeout=5)
        with self._lock:
            self._thread = None
            self._stop.clear()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with listening_connection(CHANNEL) as conn:
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._wake(note.payload)
            except Exception:
                logger.warning("order listener lost its connection; reconnecting")
            self.listening.clear()
            self._stop.wait(1.0)


listener = Listener()

T = TypeVar("T")


class _Stateful(Protocol):
    state: str


S = TypeVar("S", bound=_Stateful)


def wait_until_final(order_id: str, load: Callable[[], S], timeout_ms: int) -> S:
    """Return the order as soon as it is final, or after `timeout_ms` as it is then."""
    return wait_until(
        order_id, load, lambda order: order.state in FINAL_STATES, timeout_ms
    )


def wait_until(
    key: str, load: Callable[[], T], done: Callable[[T], bool], timeout_ms: int
) -> T:
    """`load()` again each time `key` is notified (`notify_final(key)`), until
    `done` holds for what it returns or `timeout_ms` pass; the last value read."""
    deadline = time.monotonic() + timeout_ms / 1000
    order = load()
    while not done(order):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        event = listener.subscribe(key)
        try:
            order = load()  # re-read after subscribing: no ending slips between
            if done(order):
                break
            if not connection.in_atomic_block:
                connection.close()  # hold no connection while waiting
            recheck = (
                RECHECK_LISTENING if listener.listening.is_set() else RECHECK_POLLING
            )
            event.wait(min(remaining, recheck))
        finally:
            listener.unsubscribe(key, event)
        order = load()
    return order
