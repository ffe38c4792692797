"""What a scrape reads: the files every process of this node wrote, and the
database as it is at that moment (queue depth, oldest queued order, heartbeats)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
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
from ops.metrics.queues import queue_metrics
from transformsvc import metrics_fold
from transformsvc.conf import service

logger = logging.getLogger(__name__)

ROLES = ("web", "worker")


class FilesCollector(Collector):
    """Every metric file of the node's web and worker processes, merged.

    Worker processes end without telling anyone (django-q2 replaces them after 200
    tasks or past their memory limit), so the files of processes found gone are
    folded into their folder's totals here (`metrics_fold`: counters kept, live
    gauges forgotten); gunicorn's master does it for web workers. The files are
    read under each folder's shared lock: a fold is never seen half done.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    def collect(self) -> Iterable[Metric]:
        folders = [self.root / role for role in ROLES]
        folders = [folder for folder in folders if folder.is_dir()]
        for folder in folders:
            metrics_fold.fold_ended(folder)
        with ExitStack() as stack:
            for folder in folders:  # always in this order: no deadlock
                stack.enter_context(metrics_fold.locked(folder, exclusive=False))
            files = [
                str(path)
                for folder in folders
                for path in folder.glob("*.db")
                if metrics_fold.readable(path)
            ]
            return multiprocess.MultiProcessCollector.merge(files, accumulate=True)


class DatabaseCollector(Collector):
    """Queue depth, oldest queued order per kind, and worker heartbeats, read from
    the database at scrape time (one indexed query per kind: state, queued_at)."""

    def collect(self) -> Iterator[Metric]:
        try:
            yield from self._orders()
            yield from self._heartbeats()
            yield from queue_metrics()
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
        within = service().worker_seen_within
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
