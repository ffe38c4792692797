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

from transformsvc.paths import process_role
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


def _queue_nice() -> int:
    """The nice of this process's queue (0 for main)."""
    return int(str(settings.Q_CLUSTER.get("nice", 0) or 0))


def lower_priority(sender: Any = None, proc_name: str = "", **kwargs: Any) -> None:
    """Run this worker (and the engines it starts: Tesseract) at the queue's
    `nice`, so that the interactive work of the node takes the CPU first."""
    nice = _queue_nice()
    if nice <= 0 or proc_name == "MainProcess":
        return
    try:
        os.nice(nice)
    except OSError as exc:  # not allowed here: the queue still runs, at full priority
        logger.warning("could not lower the priority of the %s worker: %s", OCR, exc)


def lower_session_priority(nice: int) -> bool:
    """Lower the CPU share of this process's session when it leads one (a
    cluster started on its own: by a service manager, the tests, the
    benchmarks). Whether it was lowered.

    Linux's autogroup scheduling (`kernel.sched_autogroup_enabled`, on in most
    distributions) shares the CPU between sessions first; a process's nice
    weighs only against the processes of its own session. A cluster in a
    session of its own would take a full share beside the web server's, nice
    or not. The session's nice (`/proc/self/autogroup`) is what weighs between
    them. A process that does not lead its session shares it with others
    (`make run` starts all three in the shell's), which it must not slow: there
    the processes' own nice does it. Under a container's or a service's cgroup
    the cgroup's CPU weight is the operator's lever; autogroups then do not
    apply and writing the file changes nothing."""
    if nice <= 0 or os.getsid(0) != os.getpid():
        return False
    try:
        with open("/proc/self/autogroup", "w") as autogroup:
            autogroup.write(str(nice))
    except OSError:  # no autogroup scheduling in this kernel, or not allowed
        return False
    return True


def connect() -> None:
    from django_q.signals import post_spawn

    post_spawn.connect(lower_priority, dispatch_uid="transformsvc-queue-nice")
    if process_role() == "worker":
        nice = _queue_nice()
        if lower_session_priority(nice):
            logger.info("the %s cluster's session runs at nice %d", served_here(), nice)
