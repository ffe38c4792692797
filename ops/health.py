"""Liveness and readiness, open to everyone (no key), JSON."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from jobs.models import WorkerHeartbeat


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        return False


# A storage found writable is not written again for this long (per process): a
# readiness probe every few seconds would otherwise PUT and DELETE on S3 each time.
STORAGE_OK_FOR = 30.0
_storage_ok_until = 0.0


def _storage_ok() -> bool:
    global _storage_ok_until
    if time.monotonic() < _storage_ok_until:
        return True
    name = f"health/{uuid.uuid4().hex}"
    try:
        saved = default_storage.save(name, ContentFile(b"ok"))
        default_storage.delete(saved)
    except Exception:
        return False
    _storage_ok_until = time.monotonic() + STORAGE_OK_FOR
    return True


def _worker_ok() -> bool:
    since = timezone.now() - timedelta(
        seconds=settings.TRANSFORMSVC["WORKER_SEEN_WITHIN"]
    )
    try:
        return WorkerHeartbeat.objects.filter(seen_at__gte=since).exists()
    except Exception:
        return False


def health(request: HttpRequest) -> JsonResponse:
    database = _database_ok()
    return JsonResponse(
        {"status": "ok" if database else "failing", "database": database},
        status=200 if database else 503,
    )


def service_states() -> dict[str, bool]:
    """Whether each part the service needs answers: database, storage, a worker."""
    checks = {"database": _database_ok()}
    checks["storage"] = _storage_ok()
    checks["worker"] = checks["database"] and _worker_ok()
    return checks


def ready(request: HttpRequest) -> JsonResponse:
    checks = service_states()
    ok = all(checks.values())
    return JsonResponse(
        {"status": "ready" if ok else "not ready", **checks}, status=200 if ok else 503
    )
