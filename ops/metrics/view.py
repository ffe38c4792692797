"""GET /metrics: the Prometheus text exposition of this node.

Open to everyone like /health, unless TRANSFORMSVC_METRICS_KEY is set: then it
asks for `Authorization: Bearer <that key>` (a scraper's `authorization`).
"""

from __future__ import annotations

import hmac

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

# The classic text format, which every Prometheus (2.x and 3.x) reads.
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from ops.metrics.collectors import exposition
from transformsvc.conf import service
from transformsvc.problems import problem_response


def _authorised(request: HttpRequest) -> bool:
    key = str(service().metrics_key or "")
    if not key:
        return True
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        token.strip().encode(), key.encode()
    )


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not _authorised(request):
        response = problem_response(
            401,
            "Unauthorized",
            "metrics need Authorization: Bearer <TRANSFORMSVC_METRICS_KEY>",
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_PLAIN_0_0_4)
