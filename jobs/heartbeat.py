"""Worker heartbeat: each django-q2 worker process records that it is alive.

/ready reads the heartbeat rows; the same loop reaps orders a killed worker left
in PROCESSING and pushes again the tasks the broker lost (jobs.dispatch), so
recovery needs no extra process. It also folds the metrics files of the cluster's
processes that ended (django-q2 replaces them unannounced): the folder stays
bounded whether or not anyone scrapes /metrics.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

from django.db import close_old_connections
from django.utils import timezone

from jobs import queues
from jobs.dispatch import redispatch_lost
from jobs.models import WorkerHeartbeat
from jobs.recovery import reap_stale_orders
from transformsvc import metrics_fold
from transformsvc.conf import service

logger = logging.getLogger(__name__)

_started = threading.Event()


def beat(name: str) -> None:
    WorkerHeartbeat.objects.update_or_create(
        pk=name, defaults={"seen_at": timezone.now()}
    )


def _loop(name: str) -> None:
    interval = service().heartbeat_seconds
    while True:
        try:
            close_old_connections()
            beat(name)
            reap_stale_orders()
            redispatch_lost()
        except Exception:
            logger.exception("heartbeat failed; retrying in %s s", interval)
        try:
            fold_ended_metrics()
        except Exception:
            logger.exception("metrics files of ended processes not folded")
        time.sleep(interval)


def fold_ended_metrics() -> None:
    """Fold the metrics files of this process's folder left by processes that
    ended (when this process shares its metrics: see transformsvc.paths)."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        metrics_fold.fold_ended(Path(folder))


def start(name: str | None = None) -> None:
    """Start the heartbeat thread once in this process."""
    if _started.is_set():
        return
    _started.set()
    name = name or queues.heartbeat_name(
        f"{socket.gethostname()}:{os.getpid()}", queues.served_here()
    )
    threading.Thread(target=_loop, args=(name,), name="heartbeat", daemon=True).start()


def _on_spawn(sender: Any, proc_name: str = "", **kwargs: Any) -> None:
    # django-q2 sends post_spawn from worker processes, and from the calling process
    # itself in sync mode ("MainProcess"), which is no worker to report.
    if proc_name != "MainProcess":
        start()


def connect() -> None:
    from django_q.signals import post_spawn

    post_spawn.connect(_on_spawn, dispatch_uid="transformsvc-heartbeat")
