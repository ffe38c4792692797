"""Errors as RFC 9457 problem details (decisions §8), mapped in one place."""

from __future__ import annotations

import errno
import logging
from typing import Any

from django import db
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engines.errors import EngineError
from transformsvc.requestid import request_id_var

logger = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"


class ServiceError(Exception):
    """A domain error raised by services; `status` picks the HTTP answer, `code`
    says what went wrong to programs (a problem body's `code`, the reason of a
    refused order in reports), set where it is raised when the class's default
    is too broad."""

    status = 400
    title = "Bad request"
    code = "invalid_request"

    def __init__(
        self,
        detail: str,
        *,
        errors: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}
        if code is not None:
            self.code = code


class InvalidInput(ServiceError):
    status = 400
    title = "Invalid input"
    code = "invalid_request"


class NotFound(ServiceError):
    status = 404
    title = "Not found"
    code = "not_found"


class NotAcceptable(ServiceError):
    status = 406
    title = "Format not available"
    code = "format_not_available"


class Conflict(ServiceError):
    status = 409
    title = "Conflict"
    code = "conflict"


class Gone(ServiceError):
    status = 410
    title = "Gone"
    code = "file_lost"


class PayloadTooLarge(ServiceError):
    status = 413
    title = "Payload too large"
    code = "over_limit"


class UnsupportedMedia(ServiceError):
    status = 415
    title = "Unsupported document"
    code = "unsupported_document"


class Unprocessable(ServiceError):
    status = 422
    title = "Unprocessable document"
    code = "unprocessable_document"


class RangeNotSatisfiable(ServiceError):
    status = 416
    title = "Range not satisfiable"
    code = "range_not_satisfiable"


class TooManyRequests(ServiceError):
    status = 429
    title = "Too many queued orders"
    code = "queue_full"


class Busy(ServiceError):
    status = 503
    title = "Service busy"
    code = "busy"


class FieldErrors:
    """The faults of several fields of one request, collected then raised as one
    400 whose `code` is the first fault's."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}
        self.code: str | None = None

    def add(self, field: str, message: str, code: str) -> None:
        self.errors[field] = [message]
        self.code = self.code or code

    def raise_any(self) -> None:
        if self.errors:
            first = next(iter(self.errors))
            raise InvalidInput(
                f"{first}: {self.errors[first][0]}", errors=self.errors, code=self.code
            )


# The HTTP answer to an engine error met while answering a request, by its code
# (engines/errors.py); any other code is a 400: the request asked for something
# the document cannot give.
ENGINE_STATUS: dict[str, tuple[int, str]] = {
    "unsupported_document": (415, "Unsupported document"),
    "encrypted_document": (415, "Unsupported document"),
    "over_limit": (413, "Payload too large"),
    "timeout": (503, "Service busy"),
    "converter_unavailable": (503, "Service busy"),
    "ocr_unavailable": (503, "Service busy"),
}


def is_user_facing(exc: BaseException) -> bool:
    """Whether the message of `exc` is written for users: ServiceError here, and
    the engines' errors."""
    return isinstance(exc, (ServiceError, EngineError))


def engine_problem(exc: EngineError) -> ServiceError:
    """The service's answer to an engine error met while answering a request."""
    status, title = ENGINE_STATUS.get(exc.code, (400, "Invalid input"))
    error = ServiceError(str(exc), code=exc.code)
    error.status, error.title = status, title
    if exc.transient:
        error.headers = {"Retry-After": "30"}
    return error


def problem_body(
    status: int,
    title: str,
    detail: str,
    errors: dict[str, list[str]] | None = None,
    code: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "requestId": request_id_var.get(),
    }
    if code:
        body["code"] = code
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
    if isinstance(exc, EngineError):
        exc = engine_problem(exc)
    if isinstance(exc, ServiceError):
        response = Response(
            problem_body(exc.status, exc.title, exc.detail, exc.errors, exc.code),
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


def outage_of(exc: BaseException) -> str | None:
    """What is out of reach when `exc` says a part the service needs does not
    answer (the database, the broker, the disk); None for any other error."""
    if isinstance(exc, (db.OperationalError, db.InterfaceError)):
        return "the database does not answer; try again shortly"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the service is short of disk space; try again later"
    kind = type(exc)
    if kind.__module__.startswith("redis.") and "Error" in kind.__name__:
        return "the queue does not answer; try again shortly"
    return None


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
