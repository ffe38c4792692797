"""Liveness and readiness, open to everyone (no key), JSON.

The checks of parts that may not answer at all (the database, the broker, the
store) run in threads of their own with a time limit, so that /health and
/ready say so within a second instead of hanging with them.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import timedelta

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import close_old_connections, connection
from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from jobs import registry
from jobs.dispatch import broker_waiting, idle_workers, stuck_queues, sweeper_of
from jobs.models import WorkerHeartbeat
from jobs.states import State
from transformsvc.conf import service
from transformsvc.disk import has_room

# Seconds one check may take before it counts as failing.
CHECK_SECONDS = 0.8

# A few threads for the checks of all requests; a check that hangs keeps its
# thread until its own timeout (the database's connect timeout, 2 s).
_checks = ThreadPoolExecutor(max_workers=8, thread_name_prefix="health")


def _within(check: Callable[[], bool], seconds: float = CHECK_SECONDS) -> bool:
    def run() -> bool:
        try:
            return check()
        except Exception:
            return False
        finally:
            close_old_connections()  # the thread's own connection

    try:
        return _checks.submit(run).result(timeout=seconds)
    except FutureTimeout:
        return False


def _inline(check: Callable[[], bool]) -> bool:
    try:
        return check()
    except Exception:
        return False


def _database() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return True


# A storage found writable is not written again for this long (per process): a
# readiness probe every few seconds would otherwise PUT and DELETE on S3 each time.
STORAGE_OK_FOR = 30.0
_storage_ok_until = 0.0


def _storage() -> bool:
    global _storage_ok_until
    if time.monotonic() < _storage_ok_until:
        return True
    name = f"health/{uuid.uuid4().hex}"
    saved = default_storage.save(name, ContentFile(b"ok"))
    default_storage.delete(saved)
    _storage_ok_until = time.monotonic() + STORAGE_OK_FOR
    return True


def _worker() -> bool:
    since = timezone.now() - timedelta(seconds=service().worker_seen_within)
    return WorkerHeartbeat.objects.filter(seen_at__gte=since).exists()


def _broker() -> bool:
    return broker_waiting() is not None


def _queue_moving() -> bool:
    """No order waits for ever: none QUEUED for four leases while a worker of
    the queue that sweeps it is idle (its task would have been pushed again
    after one). Scans waiting while the OCR queue is busy are no fault."""
    cutoff = timezone.now() - timedelta(seconds=4 * service().queue_lease)
    stuck = Q(state=State.QUEUED) & (
        Q(dispatched_at__lt=cutoff)
        | Q(dispatched_at__isnull=True, queued_at__lt=cutoff)
    )
    if not any(kind.model.objects.filter(stuck).exists() for kind in registry.kinds()):
        return True
    sweepers = {sweeper_of(queue) for queue in stuck_queues(cutoff)}
    return all(idle_workers(queue) <= 0 for queue in sweepers)


def _database_answers() -> bool:
    """The database check: on this thread's connection when it has one (a
    broken one fails at once), else in a thread of its own with a time limit
    (a connection attempt to a database that does not answer would hang)."""
    if connection.connection is not None:
        return _inline(_database)
    return _within(_database)


def health(request: HttpRequest) -> JsonResponse:
    database = _database_answers()
    return JsonResponse(
        {"status": "ok" if database else "failing", "database": database},
        status=200 if database else 503,
    )


def service_states() -> dict[str, bool]:
    """Whether each part the service needs answers: the database, the queue's
    broker, the storage, the disk, a worker, and the queue moving."""
    checks = {
        "database": _database_answers(),
        "broker": _within(_broker),
        "storage": _within(_storage),
        "disk": _inline(has_room),
    }
    # Once the database answered, these read it from the request's own
    # connection (they see what the request sees).
    checks["worker"] = checks["database"] and _inline(_worker)
    checks["queue"] = checks["database"] and _inline(_queue_moving)
    return checks


def ready(request: HttpRequest) -> JsonResponse:
    checks = service_states()
    ok = all(checks.values())
    return JsonResponse(
        {"status": "ready" if ok else "not ready", **checks}, status=200 if ok else 503
    )
