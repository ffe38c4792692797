"""Post-processing of the generated OpenAPI document: what the views cannot declare.

- every operation answers its errors as application/problem+json, with examples;
- the probes and the scraper's endpoints (/health, /ready, /metrics), which are
  plain Django views that drf-spectacular does not see;
- no component describes itself with a base class's docstring, and bodies that
  refuse unknown fields say so (`additionalProperties: false`).
"""

from __future__ import annotations

import inspect
from typing import Any

from transformsvc.strict import RejectsUnknownFields

# The API's introduction at the top of /docs: what a developer needs before
# the first call (Markdown, shown by Swagger UI).
GUIDE = """Document transformation service: upload documents (PDF, Office,
e-mail, archives, images...), read their pages, text and search hits, and order
PDFs assembled from their pages, annotated, **redacted** (verified), converted or
compared.

**A first order** (the README's example):

```
id=$(curl -s --data-binary @paper.pdf -H 'Content-Type: application/octet-stream' \\
      'http://127.0.0.1:8761/documents?documentTitle=paper' | jq -r .id)
curl -s "http://127.0.0.1:8761/documents/$id/layout"
curl -s -X POST http://127.0.0.1:8761/transformations -H 'Content-Type: application/json' \\
  -d '{"format": "pdf", "transformationDetails": [{"transformationElements": [
       {"documentId": "'$id'", "pagesSelectionList": [{"minPage": 1, "maxPage": 3}]}]}]}'
curl -s "http://127.0.0.1:8761/transformations/<order id>?timeoutMs=30000"
curl -s -o out.pdf "http://127.0.0.1:8761/documents/<transformationResultDocumentID>/file"
```

**Conventions.**
- Ids are strings chosen by the service (or by `documentId` at upload); they may
  hold `/ + = @ :` and work raw or percent-encoded in paths.
- Pages are counted **from 0** in paths, answers and annotations, but `minPage` and
  `maxPage` of a page selection count **from 1** (as the original's API).
- Positions are points on the page as displayed: origin top-left, rotation applied.
- Orders (transformations, conversions, comparisons) answer at once with their id and
  run on a worker: `QUEUED → PROCESSING → PROCESSED | FAILED`. Read one with
  `?timeoutMs=` to wait for its end (at most 60 s), or give a `callbackUrl`.
- POSTs that create accept an `Idempotency-Key` header: a retry answers the first
  request's answer and does nothing twice.

**Errors** are `application/problem+json` (RFC 9457): `detail` for people, `code`
for programs, `errors` naming each field at fault (a field the body does not know is
refused with the nearest known name). 404 for an unknown or deleted id, 429 when
too many orders wait, 503 with `Retry-After` when busy. Every answer carries
`X-Request-ID`.

**Keys.** With `TRANSFORMSVC_AUTH=token` every call but the probes, metrics and versions needs
`Authorization: Bearer <key>` and sees only its owner's documents and orders.
"""

PROBLEM = {
    "type": "object",
    "description": "An error answer (RFC 9457 problem details).",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "requestId": {"type": "string"},
        "code": {
            "type": "string",
            "description": "What went wrong, for programs: unknown_document, "
            "page_out_of_range, queue_full, unsupported_document...",
        },
        "errors": {
            "type": "object",
            "description": "The fields at fault (dotted paths into the body or "
            "the query), each with what is wrong.",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["type", "title", "status", "detail"],
}

CLIENT_ERRORS = {
    "invalid": {
        "summary": "400: a field at fault",
        "value": {
            "type": "about:blank",
            "title": "Invalid input",
            "status": 400,
            "detail": "annotation: unknown field; did you mean 'annotations'?",
            "requestId": "99dfac22acbc493f93babda103aa5617",
            "errors": {"annotation": ["unknown field; did you mean 'annotations'?"]},
        },
    },
    "unknown": {
        "summary": "404: an unknown or deleted id",
        "value": {
            "type": "about:blank",
            "title": "Not found",
            "status": 404,
            "detail": "no document with id 'invoice-2024-118'",
            "requestId": "0d6b6f3c2a9e4b51a4f0e8d7c6b5a493",
            "code": "not_found",
        },
    },
    "queue_full": {
        "summary": "429: too many orders waiting, retry after Retry-After",
        "value": {
            "type": "about:blank",
            "title": "Too many queued orders",
            "status": 429,
            "detail": "500 orders are waiting, the limit is 500; try again later",
            "requestId": "7c2e9d1a0b4f4e3a9d8c7b6a5f4e3d2c",
            "code": "queue_full",
        },
    },
}

SERVER_ERRORS = {
    "busy": {
        "summary": "503: busy, retry after the Retry-After header's seconds",
        "value": {
            "type": "about:blank",
            "title": "Service busy",
            "status": 503,
            "detail": "document 'letter-2024-03' is still being converted; "
            "try again shortly",
            "requestId": "5e1f0a7b9c3d4e2f8a6b1c0d9e8f7a6b",
            "code": "busy",
        },
    },
}


def _problem_response(description: str, examples: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": examples,
            }
        },
    }


def _checks(names: tuple[str, ...], ok: str, down: str) -> dict[str, Any]:
    """The JSON of /health and /ready: a status word and each check's answer."""
    return {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": [ok, down]},
            **{name: {"type": "boolean"} for name in names},
        },
        "required": ["status", *names],
    }


HEALTH_CHECKS = ("database",)
READY_CHECKS = ("database", "broker", "storage", "disk", "worker", "queue")


def _probe(
    operation_id: str,
    summary: str,
    description: str,
    schema: dict[str, Any],
    up: dict[str, Any],
    down: dict[str, Any],
) -> dict[str, Any]:
    def answer(what: str, example: dict[str, Any]) -> dict[str, Any]:
        return {
            "description": what,
            "content": {"application/json": {"schema": schema, "example": example}},
        }

    return {
        "operationId": operation_id,
        "summary": summary,
        "description": description,
        "security": [],
        "responses": {
            "200": answer("every check answered", up),
            "503": answer("a check failed: the body names it (false)", down),
        },
    }


OPERATIONS_PATHS: dict[str, dict[str, Any]] = {
    "/health": {
        "get": _probe(
            "getHealth",
            "Tell whether the process and its database answer",
            "The liveness probe: 200 while this process serves requests and "
            "reaches the database, 503 (same body, `database: false`) when the "
            "database does not answer within a second. No key needed. Use "
            "`/ready` to know whether orders can be served.",
            _checks(HEALTH_CHECKS, "ok", "failing"),
            {"status": "ok", "database": True},
            {"status": "failing", "database": False},
        )
    },
    "/ready": {
        "get": _probe(
            "getReady",
            "Tell whether the service can take and run orders",
            "The readiness probe: 200 when the database, the queue's broker and "
            "the storage answer, the disk has room, a worker was seen in the "
            "last 30 s and no order waits for ever; else 503 with the failing "
            "checks `false`. Each check answers within a second. No key needed.",
            _checks(READY_CHECKS, "ready", "not ready"),
            {"status": "ready", **dict.fromkeys(READY_CHECKS, True)},
            {
                "status": "not ready",
                **dict.fromkeys(READY_CHECKS, True),
                "worker": False,
            },
        )
    },
    "/metrics": {
        "get": {
            "operationId": "getMetrics",
            "summary": "Read the service's Prometheus metrics",
            "description": "The Prometheus text exposition (format 0.0.4, "
            "`text/plain; version=0.0.4`) of this node, merged across its "
            "processes: requests, orders by kind and state, queue, workers, "
            "conversion pool (the README's Metrics section lists them). Open "
            "unless `TRANSFORMSVC_METRICS_KEY` is set: then it asks for "
            "`Authorization: Bearer <that key>` and answers 401 without it.",
            "security": [],
            "responses": {
                "200": {
                    "description": "the metrics, one sample a line",
                    "content": {
                        "text/plain": {
                            "schema": {"type": "string"},
                            "example": "# HELP transformsvc_orders_created_total Orders "
                            "accepted\n# TYPE transformsvc_orders_created_total counter\n"
                            "transformsvc_orders_created_total"
                            '{format="pdf",kind="transformation"} 42.0\n',
                        }
                    },
                }
            },
        }
    },
}

# The groups of /docs, in order, each with the path prefixes it holds (the
# first prefix that matches wins) and what it is for.
TAGS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "documents",
        ("/documents", "/accessor", "/connector"),
        "Upload, fetch or register documents; read their metadata, pages, "
        "text, search hits, images, outline and signatures; download them.",
    ),
    (
        "annotations",
        ("/annotation", "/annotations", "/documents/{document_id}/annotations"),
        "The viewer's annotation store, its policy, FDF/XFDF conversion.",
    ),
    (
        "transformations",
        ("/transformations",),
        "Orders that assemble pages of documents into PDFs or zips, draw "
        "annotations, redact (by areas or rules, verified) and run operations.",
    ),
    (
        "conversions",
        ("/conversions", "/documents/{document_id}/conversions"),
        "Orders that convert a document to another format.",
    ),
    (
        "comparisons",
        ("/comparisons", "/difference"),
        "Pixel comparison orders, and the word-level text difference.",
    ),
    (
        "operations",
        ("/health", "/ready", "/metrics", "/version", "/metadata", "/weather"),
        "Probes, metrics and versions, open without a key.",
    ),
)


def _tag(path: str) -> str | None:
    """The group of `path`: the longest prefix of TAGS it starts with."""
    found = [
        (len(prefix), name)
        for name, prefixes, _ in TAGS
        for prefix in prefixes
        if path == prefix or path.startswith(prefix + "/")
    ]
    return max(found)[1] if found else None


# What a request body that refuses unknown fields says of itself, instead of
# the base class's docstring (drf-spectacular takes the nearest one).
STRICT_BODY = (
    "A field this body does not know is refused with 400, naming the field and "
    "the known one nearest to it."
)


def _strict_bodies() -> set[str]:
    """The request components of bodies that refuse every field they do not
    declare (drf-spectacular names them `<Name>Request`)."""
    found, todo = set(), list(RejectsUnknownFields.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.tolerated:
            found.add(cls.__name__.removesuffix("Serializer") + "Request")
    return found


def document_problems(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation answers its errors as application/problem+json (decisions §8);
    the operations endpoints are described; operations are grouped by what they
    are for; no base class describes a body."""
    result.setdefault("info", {})["description"] = GUIDE
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Problem"] = PROBLEM
    # Once, referred to by every operation.
    result["components"]["responses"] = {
        "ClientError": _problem_response(
            "invalid request, unknown id, too many orders...", CLIENT_ERRORS
        ),
        "ServerError": _problem_response(
            "service busy or internal error", SERVER_ERRORS
        ),
    }
    inherited = inspect.cleandoc(RejectsUnknownFields.__doc__ or "")
    for schema in schemas.values():
        if inherited and schema.get("description") == inherited:
            schema["description"] = STRICT_BODY
    # Said in the schema too, so that generated requests (schemathesis) and
    # clients' validators know an unknown field is an error.
    for name in _strict_bodies() & schemas.keys():
        schemas[name]["additionalProperties"] = False
    paths = result.setdefault("paths", {})
    for path, item in OPERATIONS_PATHS.items():
        paths.setdefault(path, item)
    result["tags"] = [{"name": name, "description": text} for name, _, text in TAGS]
    for path, operations in paths.items():
        tag = _tag(path)
        for operation in operations.values():
            if tag:
                operation["tags"] = [tag]
            responses = operation.setdefault("responses", {})
            responses.setdefault("4XX", {"$ref": "#/components/responses/ClientError"})
            responses.setdefault("5XX", {"$ref": "#/components/responses/ServerError"})
    return result
