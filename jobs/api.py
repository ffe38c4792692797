"""The HTTP view every kind of order shares: read one order (long poll), delete it.

An order app subclasses `OrderDetailView` with its model, its serializer and the
wire name of its id, and declares its OpenAPI operations on the subclass.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from jobs import selectors, services
from jobs.models import OrderBase
from jobs.notify import wait_until_final
from jobs.serializers import LongPollQuerySerializer


def long_poll_ms(request: Request) -> int:
    """`?timeoutMs=`, capped (decisions §6)."""
    query = LongPollQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return min(
        query.validated_data["timeoutMs"], settings.TRANSFORMSVC["LONG_POLL_CAP_MS"]
    )


class OrderDetailView(APIView):
    model: ClassVar[type[OrderBase]]
    serializer_class: ClassVar[type[BaseSerializer[Any]]]
    id_field: ClassVar[str]  # e.g. "transformationOrderId"

    def get(self, request: Request, order_id: str) -> Response:
        owner_id = request_owner_id(request)
        order = wait_until_final(
            order_id,
            lambda: selectors.order_get(self.model, order_id, owner_id),
            long_poll_ms(request),
        )
        return Response(self.serializer_class(order).data)

    def delete(self, request: Request, order_id: str) -> Response:
        services.order_delete(
            self.model, order_id=order_id, owner_id=request_owner_id(request)
        )
        return Response({self.id_field: {"id": order_id}})
