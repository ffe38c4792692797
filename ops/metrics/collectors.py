"""What a scrape reads: the files every process of this node wrote, and the
database as it is at that moment (queue depth, oldest queued order, heartbeats)."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Min
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from jobs import registry
from jobs.models import WorkerHeartbeat
from jobs.states import State

logger = logging.getLogger(__name__)

ROLES = ("web", "worker")
_LIVE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class FilesCollector(Collector):
    """Every metric file of the node's web and worker processes, merged.

    Worker processes end without telling anyone (django-q2 replaces them after 200
    tasks or past their memory limit), so their live gauges are forgotten here when
    their process is gone; gunicorn's master does it for web workers.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    def collect(self) -> Iterable[Metric]:
        files: list[str] = []
        for role in ROLES:
            folder = self.root / role
            if not folder.is_dir():
                continue
            self._forget_dead(folder)
            files.extend(str(p) for p in folder.glob("*.db"))
        return multiprocess.MultiProcessCollector.merge(files, accumulate=True)

    @staticmethod
    def _forget_dead(folder: Path) -> None:
        for path in folder.glob("gauge_live*_*.db"):
            match = _LIVE_FILE.match(path.name)
            if match and not _alive(int(match.group(1))):
                multiprocess.mark_process_dead(int(match.group(1)), str(folder))


class DatabaseCollector(Collector):
    """Queue depth, oldest queued order per kind, and worker heartbeats, read from
    the database at scrape time (one indexed query per kind: state, queued_at)."""

    def collect(self) -> Iterator[Metric]:
        try:
            yield from self._orders()
            yield from self._heartbeats()
        except Exception:  # the database is down: /health says so, metrics go on
            logger.exception("metrics could not read the database")

    def _orders(self) -> Iterator[Metric]:
        orders = GaugeMetricFamily(
            "transformsvc_orders",
            "Orders waiting or being processed now, by kind and state",
            labels=["kind", "state"],
        )
        oldest = GaugeMetricFamily(
            "transformsvc_queue_oldest_age_seconds",
            "Age of the oldest order still queued, by kind (0 when none waits)",
            labels=["kind"],
        )
        now = timezone.now()
        for kind in registry.kinds():
            rows: dict[str, dict[str, Any]] = {
                str(row["state"]): dict(row)
                for row in kind.model._default_manager.filter(
                    state__in=(State.QUEUED, State.PROCESSING)
                )
                .order_by()
                .values("state")
                .annotate(n=Count("pk"), first=Min("queued_at"))
            }
            for state in (State.QUEUED, State.PROCESSING):
                orders.add_metric([kind.name, state], rows.get(state, {}).get("n", 0))
            first = rows.get(State.QUEUED, {}).get("first")
            oldest.add_metric(
                [kind.name], (now - first).total_seconds() if first else 0.0
            )
        yield orders
        yield oldest

    def _heartbeats(self) -> Iterator[Metric]:
        within = int(settings.TRANSFORMSVC["WORKER_SEEN_WITHIN"])
        now = timezone.now()
        beats = WorkerHeartbeat.objects.aggregate(newest=Max("seen_at"))
        alive = WorkerHeartbeat.objects.filter(
            seen_at__gte=now - timedelta(seconds=within)
        ).count()
        newest = beats["newest"]
        age = GaugeMetricFamily(
            "transformsvc_worker_heartbeat_age_seconds",
            "Seconds since the most recent heartbeat of any worker process "
            "(of every node); -1 when no worker ever reported",
        )
        age.add_metric([], (now - newest).total_seconds() if newest else -1.0)
        yield age
        yield GaugeMetricFamily(
            "transformsvc_workers_alive",
            f"Worker processes (every node) that reported in the last {within} s",
            value=alive,
        )


def exposition() -> bytes:
    """The text exposition of this node's metrics, merged at this moment: the
    files of its web and worker processes (gunicorn and the qcluster run in
    multiprocess mode), or, in a process of its own (runserver, tests), its own."""
    scrape = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        scrape.register(FilesCollector(Path(settings.METRICS_DIR)))
    else:
        scrape.register(_OwnProcess())
    scrape.register(DatabaseCollector())
    return generate_latest(scrape)


class _OwnProcess(Collector):
    """The metrics of this process only (the default registry)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()
