"""Who is calling: the owner whose documents and orders a request may see."""

from __future__ import annotations

from rest_framework.request import Request

from documents.selectors import auth_enabled


def request_owner_id(request: Request) -> int | None:
    if not auth_enabled():
        return None
    user = getattr(request, "user", None)
    return getattr(user, "pk", None)
