"""Liveness and readiness, open to everyone (no key), JSON."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from documents.models import WorkerHeartbeat


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        return False


def _storage_ok() -> bool:
    name = f"health/{uuid.uuid4().hex}"
    try:
        saved = default_storage.save(name, ContentFile(b"ok"))
        default_storage.delete(saved)
        return True
    except Exception:
        return False


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


def ready(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database_ok()}
    checks["storage"] = _storage_ok()
    checks["worker"] = checks["database"] and _worker_ok()
    ok = all(checks.values())
    return JsonResponse(
        {"status": "ready" if ok else "not ready", **checks}, status=200 if ok else 503
    )
