"""Errors as RFC 9457 problem details (decisions §8), mapped in one place."""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from transformsvc.middleware import request_id_var

logger = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"


class ServiceError(Exception):
    """A domain error raised by services; `status` picks the HTTP answer."""

    status = 400
    title = "Bad request"
    user_facing = True

    def __init__(
        self,
        detail: str,
        *,
        errors: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}


class InvalidInput(ServiceError):
    status = 400
    title = "Invalid input"


class NotFound(ServiceError):
    status = 404
    title = "Not found"


class NotAcceptable(ServiceError):
    status = 406
    title = "Format not available"


class Conflict(ServiceError):
    status = 409
    title = "Conflict"


class PayloadTooLarge(ServiceError):
    status = 413
    title = "Payload too large"


class UnsupportedMedia(ServiceError):
    status = 415
    title = "Unsupported document"


class Unprocessable(ServiceError):
    status = 422
    title = "Unprocessable document"


class RangeNotSatisfiable(ServiceError):
    status = 416
    title = "Range not satisfiable"


class TooManyRequests(ServiceError):
    status = 429
    title = "Too many queued orders"


class Busy(ServiceError):
    status = 503
    title = "Service busy"


def is_user_facing(exc: BaseException) -> bool:
    """Whether the message of `exc` is written for users: ServiceError here, and the
    document engine's errors (flagged `user_facing` so this module need not import
    the engine)."""
    return bool(getattr(exc, "user_facing", False))


def problem_body(
    status: int, title: str, detail: str, errors: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "requestId": request_id_var.get(),
    }
    if errors:
        body["errors"] = errors
    return body


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail → {"a[0].b": ["message"]}."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int) or str(key).isdigit():  # a list item, by index
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix or "body"
            for k, v in _flatten(value, name).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "body"] = [str(item) for item in detail]
        else:
            for i, item in enumerate(detail):
                for k, v in _flatten(item, f"{prefix}[{i}]").items():
                    out.setdefault(k, []).extend(v)
    else:
        out[prefix or "body"] = [str(detail)]
    return out


def _summary(errors: dict[str, list[str]]) -> str:
    field, messages = next(iter(errors.items()))
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{field}: {messages[0]}{more}"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        response = Response(
            problem_body(exc.status, exc.title, exc.detail, exc.errors),
            status=exc.status,
            headers=exc.headers,
        )
    elif isinstance(exc, drf_exceptions.ValidationError):
        errors = _flatten(exc.detail)
        response = Response(
            problem_body(400, "Invalid input", _summary(errors), errors), status=400
        )
    elif isinstance(exc, Http404):
        response = Response(
            problem_body(404, "Not found", str(exc) or "not found"), status=404
        )
    elif isinstance(exc, drf_exceptions.APIException):
        drf_response = drf_exception_handler(exc, context)
        if drf_response is None:
            return None
        response = drf_response
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        response.data = problem_body(exc.status_code, type(exc).__name__, detail)
    else:
        return None
    response.content_type = PROBLEM_TYPE
    return response


def problem_response(status: int, title: str, detail: str) -> JsonResponse:
    return JsonResponse(
        problem_body(status, title, detail), status=status, content_type=PROBLEM_TYPE
    )


def handler404(
    request: HttpRequest, exception: Exception | None = None
) -> JsonResponse:
    return problem_response(404, "Not found", f"no resource at {request.path}")


def handler500(request: HttpRequest) -> JsonResponse:
    logger.error("internal error on %s %s", request.method, request.path)
    return problem_response(
        500,
        "Internal error",
        f"the service failed on this request; quote request id {request_id_var.get()}",
    )


def handler400(
    request: HttpRequest, exception: Exception | None = None
) -> JsonResponse:
    return problem_response(
        400, "Bad request", str(exception) if exception else "bad request"
    )
