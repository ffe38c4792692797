"""HTTP endpoints of comparisons."""

from __future__ import annotations

from urllib.parse import quote

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from comparisons import services
from comparisons.models import ComparisonOrder
from comparisons.serializers import (
    ComparisonOrderIdSerializer,
    ComparisonOrderSerializer,
    ComparisonRequestSerializer,
    DifferenceQuerySerializer,
    DocumentCompareResultSerializer,
    compare_result,
)
from idempotency.api import idempotent, json_digest
from jobs.api import OrderDetailView
from jobs.refusals import CountsRefusals
from jobs.serializers import LongPollQuerySerializer
from webhooks.services import callback_url_for


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


class ComparisonCollectionView(CountsRefusals, APIView):
    refusal_kind = "comparison"

    @extend_schema(
        operation_id="createComparison",
        request=ComparisonRequestSerializer,
        responses={200: ComparisonOrderIdSerializer},
    )
    def post(self, request: Request) -> Response:
        return idempotent(
            request,
            "comparisons",
            lambda: (self.create(request), json_digest(request)),
            lambda: json_digest(request),
        )

    def create(self, request: Request) -> Response:
        body = ComparisonRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = services.comparison_create(
            spec=body.spec(),
            owner_id=request_owner_id(request),
            callback_url=callback_url_for(
                body.validated_data.get("callbackUrl"), request.auth
            ),
        )
        return Response(
            {"comparisonOrderId": {"id": order.id}},
            headers={"Location": "/comparisons/" + quote(order.id, safe="")},
        )


@extend_schema_view(
    get=extend_schema(
        operation_id="getComparison",
        parameters=[LongPollQuerySerializer],
        responses={200: ComparisonOrderSerializer},
    ),
    delete=extend_schema(
        operation_id="deleteComparison", responses={200: ComparisonOrderIdSerializer}
    ),
)
class ComparisonDetailView(OrderDetailView):
    model = ComparisonOrder
    serializer_class = ComparisonOrderSerializer
    id_field = "comparisonOrderId"
