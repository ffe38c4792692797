"""HTTP endpoints of comparisons."""

from __future__ import annotations

from urllib.parse import quote

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from comparisons import selectors, services
from comparisons.serializers import (
    ComparisonOrderIdSerializer,
    ComparisonOrderSerializer,
    ComparisonRequestSerializer,
    DifferenceQuerySerializer,
    DocumentCompareResultSerializer,
    compare_result,
)
from orders.api import long_poll_ms
from orders.notify import wait_until_final
from orders.serializers import LongPollQuerySerializer
from transformsvc.auth import request_owner_id


class DifferenceView(APIView):
    @extend_schema(
        operation_id="getDifference",
        parameters=[DifferenceQuerySerializer],
        responses={200: DocumentCompareResultSerializer},
    )
    def get(self, request: Request) -> Response:
        query = DifferenceQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        left, right = (
            query.validated_data["leftDocumentId"],
            query.validated_data["rightDocumentId"],
        )
        changes = services.text_difference(
            left_id=left, right_id=right, owner_id=request_owner_id(request)
        )
        return Response(compare_result(left, right, changes))


class ComparisonCollectionView(APIView):
    @extend_schema(
        operation_id="createComparison",
        request=ComparisonRequestSerializer,
        responses={200: ComparisonOrderIdSerializer},
    )
    def post(self, request: Request) -> Response:
        body = ComparisonRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = services.comparison_create(
            request=body.validated_data, owner_id=request_owner_id(request)
        )
        return Response(
            {"comparisonOrderId": {"id": order.id}},
            headers={"Location": "/comparisons/" + quote(order.id, safe="")},
        )


class ComparisonDetailView(APIView):
    @extend_schema(
        operation_id="getComparison",
        parameters=[LongPollQuerySerializer],
        responses={200: ComparisonOrderSerializer},
    )
    def get(self, request: Request, order_id: str) -> Response:
        owner_id = request_owner_id(request)
        order = wait_until_final(
            order_id,
            lambda: selectors.comparison_get(order_id, owner_id),
            long_poll_ms(request),
        )
        return Response(ComparisonOrderSerializer(order).data)

    @extend_schema(
        operation_id="deleteComparison", responses={200: ComparisonOrderIdSerializer}
    )
    def delete(self, request: Request, order_id: str) -> Response:
        services.comparison_delete(
            order_id=order_id, owner_id=request_owner_id(request)
        )
        return Response({"comparisonOrderId": {"id": order_id}})
