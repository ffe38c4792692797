"""Each queue's load, read at scrape time: the orders it holds (waiting or being
processed), its workers seen alive, and what its broker holds that no worker took
(jobs.queues: "main" for the work clients wait on, "ocr" for recognition)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric

from jobs import registry
from jobs.dispatch import broker_waiting
from jobs.models import WorkerHeartbeat
from jobs.queues import of_heartbeats
from jobs.states import State
from transformsvc.conf import service
from transformsvc.settings.queue import QUEUES

STATES = (State.QUEUED, State.PROCESSING)


def queue_metrics() -> Iterator[Metric]:
    yield _orders()
    yield _workers()
    yield _waiting()


def _orders() -> Metric:
    counts: dict[tuple[str, str], int] = {
        (queue, str(state)): 0 for queue in QUEUES for state in STATES
    }
    for kind in registry.kinds():
        # The queue lengths are bounded (TRANSFORMSVC_MAX_QUEUED, the workers).
        orders = list(kind.model._default_manager.filter(state__in=STATES).order_by())
        for order, queue in zip(orders, kind.queues_of(orders), strict=True):
            key = (queue, str(order.state))
            counts[key] = counts.get(key, 0) + 1
    family = GaugeMetricFamily(
        "transformsvc_queue_orders",
        "Orders waiting or being processed now, by queue (main, ocr) and state",
        labels=["queue", "state"],
    )
    for (queue, state), n in sorted(counts.items()):
        family.add_metric([queue, state], n)
    return family


def _workers() -> Metric:
    since = timezone.now() - timedelta(seconds=service().worker_seen_within)
    alive = WorkerHeartbeat.objects.filter(seen_at__gte=since)
    family = GaugeMetricFamily(
        "transformsvc_queue_workers_alive",
        "Worker processes of each queue's cluster (every node) that reported "
        f"in the last {service().worker_seen_within} s",
        labels=["queue"],
    )
    for queue in QUEUES:
        family.add_metric([queue], of_heartbeats(alive, queue).count())
    return family


def _waiting() -> Metric:
    family = GaugeMetricFamily(
        "transformsvc_queue_broker_waiting",
        "Tasks each queue's broker holds that no worker took yet (-1: the broker "
        "does not answer)",
        labels=["queue"],
    )
    for queue in QUEUES:
        waiting = broker_waiting(queue)
        family.add_metric([queue], -1 if waiting is None else waiting)
    return family
