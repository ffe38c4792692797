"""Page-number pagination for order listings: a bare JSON array with `Link` and
`X-Total-Count` headers, as the original's lists."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.db.models import QuerySet
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer


def paginate_array(
    request: Request,
    qs: QuerySet[Any],
    serializer: type[BaseSerializer[Any]],
    params: dict[str, Any],
) -> Response:
    """One page as a bare JSON array (the original's lists), with the links to the
    next and previous pages in a `Link` header (RFC 8288) and the total in
    `X-Total-Count`."""
    page, size = params["page"], params["pageSize"]
    total = qs.count()
    items = qs[(page - 1) * size : page * size]
    links = []
    if page * size < total:
        links.append(_link(request, params, page + 1, "next"))
    if page > 1:
        links.append(_link(request, params, page - 1, "prev"))
    headers = {"X-Total-Count": str(total)}
    if links:
        headers["Link"] = ", ".join(links)
    return Response(serializer(items, many=True).data, headers=headers)


def _link(request: Request, params: dict[str, Any], page: int, rel: str) -> str:
    query = {k: v for k, v in request.query_params.items() if k != "page"}
    query["page"] = str(page)
    return f'<{request.path}?{urlencode(query)}>; rel="{rel}"'
