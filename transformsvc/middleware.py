"""Request ids: every response carries X-Request-ID, every log line names it."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from transformsvc.problems import outage_of, problem_response
from transformsvc.requestid import request_id_var

_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        # A client's id is reused only when it is harmless in logs and headers.
        rid = incoming if _SAFE_ID.match(incoming) else uuid.uuid4().hex
        token = request_id_var.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = rid
        return response


class TrailingSlashMiddleware:
    """Accept API paths with or without a trailing slash (decisions §1).

    Routes are written without one, so the OpenAPI document shows the contract's
    paths exactly; the admin keeps Django's own slash handling.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if (
            len(path) > 1
            and path.endswith("/")
            and not path.startswith(("/admin/", "/static/"))
        ):
            request.path_info = path.rstrip("/") or "/"
        return self.get_response(request)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class ControlCharacterMiddleware:
    """A control character (NUL, line feeds...) is in no id or name the service
    keeps: such a path answers 404 and such a query parameter 400, before any
    database sees them (PostgreSQL text cannot hold NUL)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _CONTROL.search(request.path):
            return problem_response(
                404, "Not found", "no resource has a control character in its path"
            )
        for name, values in request.GET.lists():
            if _CONTROL.search(name) or any(_CONTROL.search(v) for v in values):
                return problem_response(
                    400,
                    "Invalid input",
                    f"query parameter {name!r} holds a control character",
                )
        return self.get_response(request)


class OutageMiddleware:
    """The database, the broker or the disk out of reach answers 503 with
    Retry-After, never 500: the request may succeed once they are back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        detail = outage_of(exception)
        if detail is None:
            return None
        logging.getLogger(__name__).warning(
            "%s %s: %s (%s)", request.method, request.path, detail, exception
        )
        response = problem_response(503, "Service unavailable", detail)
        response["Retry-After"] = "5"
        return response
