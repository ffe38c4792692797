"""Counts and times every HTTP answer by route name, never by raw path (ids in
paths would make one series per document)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponseBase

from transformsvc.metrics import (
    DB_POOL_CONNECTIONS,
    DB_POOL_WAITING,
    HTTP_DURATION,
    HTTP_REQUESTS,
)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_of(request: HttpRequest) -> str:
    """The URL pattern's name (with its namespace: admin:index), "static" for
    static files, "unmatched" when no route answered (404)."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.view_name:
        return str(match.view_name)
    if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"
    return "unmatched"


class MetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        route = route_of(request)
        method = request.method if request.method in METHODS else "other"
        HTTP_REQUESTS.labels(route, method, str(response.status_code)).inc()
        HTTP_DURATION.labels(route, method).observe(elapsed)
        record_pool()
        return response


def record_pool() -> None:
    """This process's psycopg pool, when pooling is on (settings DB_POOL)."""
    if "pool" not in connections["default"].settings_dict.get("OPTIONS", {}):
        return
    pool = getattr(connections["default"], "pool", None)
    if pool is None:
        return
    stats = pool.get_stats()
    DB_POOL_CONNECTIONS.labels("size").set(stats.get("pool_size", 0))
    DB_POOL_CONNECTIONS.labels("available").set(stats.get("pool_available", 0))
    DB_POOL_CONNECTIONS.labels("max").set(stats.get("pool_max", 0))
    DB_POOL_WAITING.set(stats.get("requests_waiting", 0))
