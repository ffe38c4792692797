"""django-q2's database broker, woken by PostgreSQL NOTIFY instead of polling.

The stock ORM broker sleeps `poll` seconds whenever the queue is empty, so an
order waits half a poll on average before a worker sees it (25 ms at 50 ms).
Here every enqueue sends a NOTIFY, and the cluster's pusher waits for one on a
LISTEN connection of its own; `poll` remains the longest wait, a safety net for
tasks that become due without an enqueue (a retry after a lost worker) and for
the moments the listening connection is being re-opened.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import connections
from django.utils import timezone
from django_q.brokers.orm import ORM
from django_q.conf import Conf

from jobs.notify import listening_connection

logger = logging.getLogger(__name__)

CHANNEL = "transformsvc_queue"
RECONNECT_SECONDS = 10.0


class NotifyingORM(ORM):
    def __init__(self, list_key: str | None = None) -> None:
        super().__init__(list_key=list_key)
        self._listening: Any = None  # a psycopg connection, opened by dequeue
        self._next_attempt = 0.0  # monotonic time before which no reconnect is tried

    def enqueue(self, task: Any) -> Any:
        package_id = super().enqueue(task)
        connection = connections[Conf.ORM]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Sent at commit when the enqueue is inside a transaction, so the
                # pusher never wakes before the task can be read.
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, self.list_key])
        return package_id

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        # Listen before reading the queue: a task enqueued in between still wakes us.
        listening = self._listen()
        tasks = (
            self.get_connection()
            .filter(key=self.list_key, lock__lt=timezone.now())
            .order_by("id")[: Conf.BULK]
        )
        task_list = []
        for task in tasks:
            claimed = (
                self.get_connection()
                .filter(id=task.id, lock=task.lock)
                .update(lock=self.timeout(task))
            )
            if claimed:  # else another cluster was faster
                task_list.append((task.pk, task.payload))
        if task_list:
            return task_list
        if listening is None:
            time.sleep(Conf.POLL)
        else:
            self._wait(listening)
        return None

    def _listen(self) -> Any:
        """The LISTEN connection, (re)opened when needed; None when it cannot be
        (then the broker polls, and tries again after `RECONNECT_SECONDS`)."""
        if self._listening is not None and not self._listening.closed:
            return self._listening
        if connections[Conf.ORM].vendor != "postgresql":
            return None
        if time.monotonic() < self._next_attempt:
            return None
        try:
            self._listening = listening_connection(CHANNEL, Conf.ORM)
        except Exception:
            logger.warning(
                "queue listener cannot connect; polling every %s s for %s s",
                Conf.POLL,
                RECONNECT_SECONDS,
            )
            self._listening = None
            self._next_attempt = time.monotonic() + RECONNECT_SECONDS
        return self._listening

    def _wait(self, listening: Any) -> None:
        """Until a NOTIFY arrives or `poll` seconds pass; then take every pending
        notification, as one read of the queue serves them all."""
        try:
            for _ in listening.notifies(timeout=Conf.POLL, stop_after=1):
                pass
            for _ in listening.notifies(timeout=0):
                pass
        except Exception:
            logger.warning("queue listener lost its connection; reconnecting")
            self._close()

    def _close(self) -> None:
        if self._listening is not None:
            try:
                self._listening.close()
            except Exception:  # already broken: nothing left to release
                pass
        self._listening = None
