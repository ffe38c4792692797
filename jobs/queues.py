"""The queues work is sent to, each served by a django-q2 cluster of its own
(transformsvc/settings/queue.py): "main" for what clients wait on, "ocr" for
recognising scans. A kind of order says which queue each of its orders goes to
(`OrderKind.queues`); this process serves one of them."""

from __future__ import annotations

import logging
import os
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from transformsvc.settings.queue import cluster_name

logger = logging.getLogger(__name__)

MAIN = "main"
OCR = "ocr"


def cluster_of(queue: str) -> str:
    """The django-q2 cluster name (the broker's list) of `queue`."""
    return cluster_name(str(settings.Q_CLUSTER["name"]), queue)


def served_here() -> str:
    """The queue this process's cluster serves (TRANSFORMSVC_WORKER_QUEUE)."""
    return str(settings.Q_CLUSTER.get("queue", MAIN))


def heartbeat_name(base: str, queue: str) -> str:
    """A worker's heartbeat row: `base` (host:pid), with its queue unless main."""
    return base if queue == MAIN else f"{base}/{queue}"


def of_heartbeats(rows: QuerySet[Any], queue: str) -> QuerySet[Any]:
    """The heartbeat `rows` of `queue`'s workers (see heartbeat_name)."""
    if queue == MAIN:
        return rows.exclude(name__contains="/")
    return rows.filter(name__endswith=f"/{queue}")


def lower_priority(sender: Any = None, proc_name: str = "", **kwargs: Any) -> None:
    """Run this worker (and the engines it starts: Tesseract) at the queue's
    `nice`, so that the interactive work of the node takes the CPU first."""
    nice = int(str(settings.Q_CLUSTER.get("nice", 0) or 0))
    if nice <= 0 or proc_name == "MainProcess":
        return
    try:
        os.nice(nice)
    except OSError as exc:  # not allowed here: the queue still runs, at full priority
        logger.warning("could not lower the priority of the %s worker: %s", OCR, exc)


def connect() -> None:
    from django_q.signals import post_spawn

    post_spawn.connect(lower_priority, dispatch_uid="transformsvc-queue-nice")
