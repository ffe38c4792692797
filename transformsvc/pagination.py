"""Page-number pagination for order listings."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer


def paginate(
    request: Request,
    qs: QuerySet[Any],
    serializer: type[Serializer],
    params: dict[str, Any],
) -> Response:
    page, size = params["page"], params["pageSize"]
    total = qs.count()
    items = qs[(page - 1) * size : page * size]
    return Response(
        {
            "count": total,
            "page": page,
            "pageSize": size,
            "results": serializer(items, many=True).data,
        }
    )
