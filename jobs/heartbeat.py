"""Worker heartbeat: each django-q2 worker process records that it is alive.

/ready reads the heartbeat rows; the same loop reaps orders a killed worker left
in PROCESSING, so recovery needs no extra process.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from jobs.models import WorkerHeartbeat
from jobs.recovery import reap_stale_orders

logger = logging.getLogger(__name__)

_started = threading.Event()


def beat(name: str) -> None:
    WorkerHeartbeat.objects.update_or_create(
        pk=name, defaults={"seen_at": timezone.now()}
    )


def _loop(name: str) -> None:
    interval = float(settings.TRANSFORMSVC["HEARTBEAT_SECONDS"])
    while True:
        try:
            close_old_connections()
            beat(name)
            reap_stale_orders()
        except Exception:
            logger.exception("heartbeat failed; retrying in %s s", interval)
        time.sleep(interval)


def start(name: str | None = None) -> None:
    """Start the heartbeat thread once in this process."""
    if _started.is_set():
        return
    _started.set()
    name = name or f"{socket.gethostname()}:{os.getpid()}"
    threading.Thread(target=_loop, args=(name,), name="heartbeat", daemon=True).start()


def _on_spawn(sender: Any, proc_name: str = "", **kwargs: Any) -> None:
    # django-q2 sends post_spawn from worker processes, and from the calling process
    # itself in sync mode ("MainProcess"), which is no worker to report.
    if proc_name != "MainProcess":
        start()


def connect() -> None:
    from django_q.signals import post_spawn

    post_spawn.connect(_on_spawn, dispatch_uid="transformsvc-heartbeat")
