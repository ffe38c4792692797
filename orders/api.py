"""HTTP endpoints of transformation orders."""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from orders import selectors, services
from orders.notify import wait_until_final
from orders.serializers import (
    LongPollQuerySerializer,
    OrderListQuerySerializer,
    TransformationOrderIdSerializer,
    TransformationOrderPageSerializer,
    TransformationOrderSerializer,
    TransformationRequestSerializer,
)
from transformsvc.auth import request_owner_id
from transformsvc.pagination import paginate


def long_poll_ms(request: Request) -> int:
    query = LongPollQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return min(
        query.validated_data["timeoutMs"], settings.TRANSFORMSVC["LONG_POLL_CAP_MS"]
    )


class TransformationCollectionView(APIView):
    @extend_schema(
        operation_id="createTransformation",
        request=TransformationRequestSerializer,
        responses={200: TransformationOrderIdSerializer},
    )
    def post(self, request: Request) -> Response:
        body = TransformationRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = services.order_create(
            request=body.normalised(), owner_id=request_owner_id(request)
        )
        return Response(
            {"transformationOrderId": {"id": order.id}},
            headers={"Location": "/transformations/" + quote(order.id, safe="")},
        )

    @extend_schema(
        operation_id="listTransformations",
        parameters=[OrderListQuerySerializer],
        responses={200: TransformationOrderPageSerializer},
    )
    def get(self, request: Request) -> Response:
        query = OrderListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        orders = selectors.orders_list(
            request_owner_id(request), state=query.validated_data.get("state")
        )
        return paginate(
            request, orders, TransformationOrderSerializer, query.validated_data
        )


class TransformationDetailView(APIView):
    @extend_schema(
        operation_id="getTransformation",
        parameters=[LongPollQuerySerializer],
        responses={200: TransformationOrderSerializer},
    )
    def get(self, request: Request, order_id: str) -> Response:
        owner_id = request_owner_id(request)
        order = wait_until_final(
            order_id,
            lambda: selectors.order_get(order_id, owner_id),
            long_poll_ms(request),
        )
        return Response(TransformationOrderSerializer(order).data)

    @extend_schema(
        operation_id="deleteTransformation",
        responses={200: TransformationOrderIdSerializer},
    )
    def delete(self, request: Request, order_id: str) -> Response:
        services.order_delete(order_id=order_id, owner_id=request_owner_id(request))
        return Response({"transformationOrderId": {"id": order_id}})
