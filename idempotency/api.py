"""The `Idempotency-Key` header of the create calls (POST /documents,
/transformations, /comparisons, /conversions), for their views.

A retry with the same key and the same request (method, path, query, body)
gets the first answer: same status, body and Location, plus
`Idempotent-Replayed: true`. The same key with another request is a 422
problem, as the IETF draft on the header asks: the request is well formed but
cannot be processed with that key (409 is kept for a first request still in
progress, which the retry may wait for). Keys are per owner and expire after
TRANSFORMSVC_IDEMPOTENCY_TTL seconds. Error answers are not kept (those calls
change nothing when they fail), so a retry after one does the work.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from accounts.auth import request_owner_id
from idempotency import services
from transformsvc.metrics import IDEMPOTENT_REPLAYS
from transformsvc.problems import Conflict, InvalidInput, Unprocessable

HEADER = "Idempotency-Key"
EMPTY_BODY = hashlib.sha256(b"").hexdigest()


def json_digest(request: Request) -> str:
    """sha256 of a JSON body as parsed (key order and spacing do not matter)."""
    canonical = json.dumps(
        request.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _fingerprint(request: Request, body_digest: str) -> str:
    query = sorted(request.query_params.lists())
    text = json.dumps([request.method, request.path, query, body_digest])
    return hashlib.sha256(text.encode()).hexdigest()


def _key(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not 1 <= len(key) <= 255 or not key.isprintable():
        raise InvalidInput(
            f"{HEADER} must be 1 to 255 printable characters",
            errors={HEADER: ["invalid key"]},
        )
    return key


def idempotent(
    request: Request,
    route: str,
    work: Callable[[], tuple[Response, str]],
    digest: Callable[[], str],
) -> Response:
    """Answer with `work()` (the response and the sha256 of the request body it
    read), or with the answer kept for the request's Idempotency-Key. `digest()`
    gives the body's sha256 without doing the work (a replay is checked first)."""
    key = _key(request)
    if key is None:
        return work()[0]
    row, mine = services.claim(owner_id=request_owner_id(request), key=key, route=route)
    if not mine:
        if row.status is None:
            raise Conflict(
                f"a request with this {HEADER} is still being served; retry later",
                headers={"Retry-After": "1"},
            )
        if row.fingerprint != _fingerprint(request, digest()):
            raise Unprocessable(
                f"this {HEADER} was used for a different request "
                f"({row.route}); use a new key for a new request"
            )
        IDEMPOTENT_REPLAYS.labels(route).inc()
        return _replay(row.status, row.body, row.location)
    try:
        response, body_digest = work()
    except BaseException:
        services.release(row)
        raise
    if response.status_code >= 500 or response.status_code == 429:
        services.release(row)
        return response
    services.complete(
        row,
        fingerprint=_fingerprint(request, body_digest),
        status=response.status_code,
        body=response.data,
        location=response.headers.get("Location"),
    )
    return response


def _replay(status: int, body: Any, location: str | None) -> Response:
    headers = {"Idempotent-Replayed": "true"}
    if location:
        headers["Location"] = location
    return Response(body, status=status, headers=headers)
