"""HTTP endpoints of conversion orders (the original's /conversions)."""

from __future__ import annotations

from urllib.parse import quote

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from conversions import services
from conversions.models import ConversionOrder
from conversions.serializers import (
    ConversionOrderIdSerializer,
    ConversionOrderSerializer,
    ConversionRequestSerializer,
)
from documents.selectors import document_get
from idempotency.api import idempotent, json_digest
from jobs.api import OrderDetailView
from jobs.selectors import orders_list
from jobs.serializers import (
    LongPollQuerySerializer,
    OrderIdSerializer,
    OrderListQuerySerializer,
)
from transformsvc.pagination import paginate_array
from webhooks.services import callback_url_for


class ConversionCollectionView(APIView):
    @extend_schema(
        operation_id="createConversion",
        request=ConversionRequestSerializer,
        responses={200: ConversionOrderIdSerializer},
    )
    def post(self, request: Request) -> Response:
        return idempotent(
            request,
            "conversions",
            lambda: (self.create(request), json_digest(request)),
            lambda: json_digest(request),
        )

    def create(self, request: Request) -> Response:
        body = ConversionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = services.conversion_create(
            spec=body.spec(),
            owner_id=request_owner_id(request),
            callback_url=callback_url_for(
                body.validated_data.get("callbackUrl"), request.auth
            ),
        )
        return Response(
            {"conversionOrderId": {"id": order.id}},
            headers={"Location": "/conversions/" + quote(order.id, safe="")},
        )

    @extend_schema(
        operation_id="listConversions",
        parameters=[OrderListQuerySerializer],
        responses={200: ConversionOrderSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        query = OrderListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        orders = orders_list(
            ConversionOrder,
            request_owner_id(request),
            state=query.validated_data.get("state"),
        )
        return paginate_array(
            request, orders, ConversionOrderSerializer, query.validated_data
        )

    @extend_schema(operation_id="deleteConversions", responses={200: None})
    def delete(self, request: Request) -> Response:
        services.conversions_delete_all(owner_id=request_owner_id(request))
        return Response(status=200)


@extend_schema_view(
    get=extend_schema(
        operation_id="getConversion",
        parameters=[LongPollQuerySerializer],
        responses={200: ConversionOrderSerializer},
    ),
    delete=extend_schema(
        operation_id="deleteConversion",
        responses={200: ConversionOrderIdSerializer},
    ),
)
class ConversionDetailView(OrderDetailView):
    model = ConversionOrder
    serializer_class = ConversionOrderSerializer
    id_field = "conversionOrderId"


class DocumentConversionsView(APIView):
    @extend_schema(
        operation_id="getDocumentConversions",
        responses={200: OrderIdSerializer(many=True)},
    )
    def get(self, request: Request, document_id: str) -> Response:
        owner_id = request_owner_id(request)
        doc = document_get(document_id, owner_id)
        orders = orders_list(ConversionOrder, owner_id).filter(document_id=doc.id)
        return Response(
            [{"id": order_id} for order_id in orders.values_list("id", flat=True)]
        )
