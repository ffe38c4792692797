"""Orders whose task the broker lost are pushed again.

An order is owed a run from the moment its QUEUED row commits (jobs.tasks). Its
task can be lost on the way: the push failed (the broker was down), the broker
forgot it (a Redis without persistence restarted), or a worker died holding it.
The broker is first in, first out, so a task it still holds is taken as soon as a
worker is free. Hence the rule, checked at every heartbeat on every worker: when
a worker is idle and the broker holds no task, every order QUEUED for longer
than the lease (TRANSFORMSVC_QUEUE_LEASE, seconds) has lost its task, and is
pushed again. Each re-push is claimed by a conditional UPDATE of the order's
`dispatched_at`, so two sweepers never push one order twice in a lease; if a
lost task was only late, its order runs once all the same (claims are
conditional UPDATEs too).

Each queue (jobs.queues) is swept by its own cluster's workers, with its own
broker and its own idle workers: OCR work waiting behind a long recognition is
not lost work. While no worker of the OCR queue is alive (a node started without
its OCR cluster), the main queue's sweeper takes the OCR work it finds lost, so
that scans are still recognised, on the main workers.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django_q.brokers import get_broker

from jobs import queues, registry
from jobs.models import OrderBase, WorkerHeartbeat
from jobs.states import State
from jobs.tasks import push
from transformsvc.conf import service

logger = logging.getLogger(__name__)

BATCH = 200


def _stale(cutoff: datetime) -> Q:
    return Q(state=State.QUEUED) & (
        Q(dispatched_at__lt=cutoff)
        | Q(dispatched_at__isnull=True, queued_at__lt=cutoff)
    )


def alive_workers(queue: str) -> int:
    """Workers of `queue` seen alive lately (jobs.heartbeat names them)."""
    since = timezone.now() - timedelta(seconds=service().worker_seen_within)
    return queues.of_heartbeats(
        WorkerHeartbeat.objects.filter(seen_at__gte=since), queue
    ).count()


def idle_workers(queue: str = queues.MAIN) -> int:
    """Workers of `queue` seen alive lately, less its orders being processed."""
    busy = sum(
        kind.queues_of(list(kind.model.objects.filter(state=State.PROCESSING))).count(
            queue
        )
        for kind in registry.kinds()
    )
    return alive_workers(queue) - busy


def broker_waiting(queue: str = queues.MAIN) -> int | None:
    """Tasks the broker of `queue` holds that no worker took yet; None when it
    cannot say."""
    try:
        return int(get_broker(queues.cluster_of(queue)).queue_size())
    except Exception as exc:
        logger.warning("the queue broker does not answer: %s", exc)
        return None


def _oldest(model: type[OrderBase], cutoff: datetime) -> list[OrderBase]:
    return list(model.objects.filter(_stale(cutoff)).order_by("queued_at")[:BATCH])


def _with_queues(
    kind: registry.OrderKind, orders: list[OrderBase]
) -> list[tuple[OrderBase, str]]:
    return list(zip(orders, kind.queues_of(orders), strict=True))


def sweeper_of(queue: str) -> str:
    """The queue whose workers push again the lost work of `queue`: its own,
    or the main one while `queue` has no worker alive."""
    if queue == queues.MAIN or alive_workers(queue) > 0:
        return queue
    return queues.MAIN


def stuck_queues(cutoff: datetime) -> set[str]:
    """The queues of the orders QUEUED and not pushed since `cutoff`."""
    return {
        queue
        for kind in registry.kinds()
        for _, queue in _with_queues(kind, _oldest(kind.model, cutoff))
    }


def redispatch_lost(here: str | None = None) -> int:
    """Push again the tasks of orders the broker lost (see the module), of the
    queue `here` (this process's by default); how many."""
    here = here or queues.served_here()
    cutoff = timezone.now() - timedelta(seconds=service().queue_lease)
    found = [
        (kind, order.pk, queue)
        for kind in registry.kinds()
        for order, queue in _with_queues(kind, _oldest(kind.model, cutoff))
    ]
    swept = {queue for queue in {q for _, _, q in found} if sweeper_of(queue) == here}
    stale = [(kind, order_id) for kind, order_id, queue in found if queue in swept]
    if not stale or broker_waiting(here) != 0 or idle_workers(here) <= 0:
        return 0
    pushed = 0
    for kind, order_id in stale:
        mine = kind.model.objects.filter(_stale(cutoff), pk=order_id).update(
            dispatched_at=timezone.now()
        )
        if mine and push(kind.task, order_id, here):
            pushed += 1
            logger.warning(
                "%s order %s had lost its task: queued again", kind.name, order_id
            )
    return pushed
