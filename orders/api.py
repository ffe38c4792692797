"""HTTP endpoints of transformation orders."""

from __future__ import annotations

from urllib.parse import quote

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from idempotency.api import idempotent, json_digest
from jobs import services as jobs_services
from jobs.api import OrderDetailView
from jobs.refusals import CountsRefusals
from jobs.selectors import orders_list
from jobs.serializers import LongPollQuerySerializer, OrderListQuerySerializer
from orders import services
from orders.models import TransformationOrder
from orders.serializers import (
    TransformationOrderIdSerializer,
    TransformationOrderSerializer,
    TransformationRequestSerializer,
)
from transformsvc.pagination import paginate_array
from webhooks.services import callback_url_for

PAGE_HEADERS = [
    OpenApiParameter(
        "Link",
        str,
        location=OpenApiParameter.HEADER,
        response=[200],
        description='RFC 8288: <...?page=2&pageSize=50>; rel="next", ...',
    ),
    OpenApiParameter(
        "X-Total-Count",
        int,
        location=OpenApiParameter.HEADER,
        response=[200],
        description="Orders in all pages",
    ),
]


class TransformationCollectionView(CountsRefusals, APIView):
    refusal_kind = "transformation"

    @extend_schema(
        operation_id="createTransformation",
        request=TransformationRequestSerializer,
        responses={200: TransformationOrderIdSerializer},
    )
    def post(self, request: Request) -> Response:
        return idempotent(
            request,
            "transformations",
            lambda: (self.create(request), json_digest(request)),
            lambda: json_digest(request),
        )

    def create(self, request: Request) -> Response:
        body = TransformationRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = services.order_create(
            spec=body.spec(),
            request=body.normalised(),
            owner_id=request_owner_id(request),
            callback_url=callback_url_for(
                body.validated_data.get("callbackUrl"), request.auth
            ),
        )
        return Response(
            {"transformationOrderId": {"id": order.id}},
            headers={"Location": "/transformations/" + quote(order.id, safe="")},
        )

    @extend_schema(
        operation_id="listTransformations",
        parameters=[OrderListQuerySerializer, *PAGE_HEADERS],
        responses={200: TransformationOrderSerializer(many=True)},
        description="Newest first, one page (`page`, `pageSize`); the `Link` header "
        "(RFC 8288) points at the next and previous pages.",
    )
    def get(self, request: Request) -> Response:
        query = OrderListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        orders = orders_list(
            TransformationOrder,
            request_owner_id(request),
            state=query.validated_data.get("state"),
        )
        return paginate_array(
            request, orders, TransformationOrderSerializer, query.validated_data
        )

    @extend_schema(
        operation_id="deleteAllTransformations",
        description="Remove all of the caller's transformation orders.",
        responses={200: None},
    )
    def delete(self, request: Request) -> HttpResponse:
        jobs_services.orders_delete_all(
            TransformationOrder, owner_id=request_owner_id(request)
        )
        return HttpResponse(status=200)


@extend_schema_view(
    get=extend_schema(
        operation_id="getTransformation",
        parameters=[LongPollQuerySerializer],
        responses={200: TransformationOrderSerializer},
    ),
    delete=extend_schema(
        operation_id="deleteTransformation",
        responses={200: TransformationOrderIdSerializer},
    ),
)
class TransformationDetailView(OrderDetailView):
    model = TransformationOrder
    serializer_class = TransformationOrderSerializer
    id_field = "transformationOrderId"
