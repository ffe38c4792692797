"""What the original's /metadata and /weather tell a load balancer: how long
this process has run, and how loaded the service is now.

The weather is a score, lower is better: the CPU load of this machine (the
1-minute load average per core, 1.0 when every core is busy) plus the orders
waiting for a worker per live worker process (every node's, from their
heartbeats). An idle service scores about 0; one whose cores are all busy and
whose workers each have two orders waiting scores about 3.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

from django.utils import timezone

from jobs import registry
from jobs.models import WorkerHeartbeat
from jobs.states import State
from transformsvc.conf import service

_STARTED = time.monotonic()


def uptime() -> str:
    """Time since this process started, as the original writes it: `3h 15m`
    (`2d 3h 15m` past a day)."""
    minutes = int(time.monotonic() - _STARTED) // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{hours}h {minutes}m"
    return f"{days}d {text}" if days else text


def cpu_load() -> float:
    """The 1-minute load average per core (0 where the system does not say)."""
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        return 0.0


def queue_load() -> float:
    """Orders of every kind waiting for a worker, per live worker process (all
    of them when no worker is alive: nobody is taking them)."""
    waiting = sum(
        kind.model._default_manager.filter(state=State.QUEUED).count()
        for kind in registry.kinds()
    )
    since = timezone.now() - timedelta(seconds=service().worker_seen_within)
    workers = WorkerHeartbeat.objects.filter(seen_at__gte=since).count()
    return waiting / max(workers, 1)


def weather() -> float:
    """The load score: `cpu_load() + queue_load()`, rounded to hundredths."""
    return round(cpu_load() + queue_load(), 2)
