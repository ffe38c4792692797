"""Who is calling: bearer keys when TRANSFORMSVC_AUTH=token, nobody otherwise.

Each key belongs to an owner; an owner sees only its own documents and orders.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.db.models import Model, QuerySet
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.keys import apikey_owner


def auth_enabled() -> bool:
    return getattr(settings, "TRANSFORMSVC_AUTH", "") == "token"


M = TypeVar("M", bound=Model)


def owned(qs: QuerySet[M], owner_id: int | None) -> QuerySet[M]:
    """`qs` narrowed to the rows of `owner_id` when authentication is on."""
    return qs.filter(owner_id=owner_id) if auth_enabled() else qs


class BearerKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        if not auth_enabled():
            return None
        header = request.META.get("HTTP_AUTHORIZATION", "")
        scheme, _, token = header.partition(" ")
        if not header:
            return None
        if scheme.lower() != "bearer" or not token.strip():
            raise exceptions.AuthenticationFailed("use Authorization: Bearer <key>")
        key = apikey_owner(token.strip())
        if key is None:
            raise exceptions.AuthenticationFailed("unknown or revoked API key")
        return key.owner, key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="transformsvc"'


class KeyRequired(BasePermission):
    message = "an API key is required: Authorization: Bearer <key>"

    def has_permission(self, request: Request, view: Any) -> bool:
        return not auth_enabled() or request.auth is not None


def request_owner_id(request: Request) -> int | None:
    if not auth_enabled():
        return None
    user = getattr(request, "user", None)
    return getattr(user, "pk", None)
