"""HTTP endpoints of conversion orders (the original's /conversions)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
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
from jobs.api import (
    OrderCollectionView,
    OrderDetailView,
    collection_schema,
    detail_schema,
)
from jobs.selectors import orders_list
from jobs.serializers import OrderIdSerializer

NOUN = "conversion orders"

CONVERSION_ID = {
    "conversionOrderId": {"id": "67a33f39-6124-4ea0-9f7b-ccf691206e8e-pdf"}
}
CONVERSION = {
    "currentState": "PROCESSED",
    "errorMessage": None,
    "queuedDate": "2026-11-27T13:06:22.517+00:00",
    "processedDate": "2026-11-27T13:06:24.689+00:00",
    "queuedTime": 10,
    "processingTime": 2161,
    "callbackUrl": None,
    "queued": False,
    "conversionOrderId": CONVERSION_ID["conversionOrderId"],
    "documentId": {"id": "letter-2024-03"},
    "format": "pdf",
    "conversionResultDocumentID": {
        "id": "b64_NWNjZWRjN2UtNWNkNS00YzZlLTkyNjUtODc0MmFjNWQyMzM3"
    },
}


@collection_schema(
    noun=NOUN,
    create="createConversion",
    list_="listConversions",
    delete="deleteConversions",
    request=ConversionRequestSerializer,
    created=ConversionOrderIdSerializer,
    order=ConversionOrderSerializer,
    create_description="The original's conversion: the document in another "
    "`format`, made by a worker (LibreOffice for Office formats), then read "
    "with `GET /documents/{conversionResultDocumentID}/file` or `GET "
    "/documents/{documentId}/file?format=<format>`. A format the document "
    "cannot be converted to is refused at once with 400 and the formats it "
    "can. The order's id ends with `-<format>`.",
    requests={
        "A Word letter to PDF": {"documentId": "letter-2024-03", "format": "pdf"},
        "A PDF's pages as PNG images": {
            "documentId": {"id": "invoice-2024-117"},
            "format": "png",
            "callbackUrl": "https://dms.example.com/hooks/transformsvc",
        },
    },
    order_example=CONVERSION,
    id_example=CONVERSION_ID,
)
class ConversionCollectionView(OrderCollectionView):
    model = ConversionOrder
    request_serializer = ConversionRequestSerializer
    serializer_class = ConversionOrderSerializer
    id_field = "conversionOrderId"
    route = "conversions"

    def create_order(
        self, body: Any, *, owner_id: int | None, callback_url: str | None
    ) -> ConversionOrder:
        return services.conversion_create(
            spec=body.spec(), owner_id=owner_id, callback_url=callback_url
        )


@detail_schema(
    noun=NOUN,
    get="getConversion",
    delete="deleteConversion",
    order=ConversionOrderSerializer,
    deleted=ConversionOrderIdSerializer,
    orders={
        "Processed: the result is a document": CONVERSION,
        "Queued (reads PROCESSING, queued true)": {
            **CONVERSION,
            "currentState": "PROCESSING",
            "queued": True,
            "processedDate": None,
            "processingTime": 0,
            "conversionResultDocumentID": None,
        },
    },
    id_example=CONVERSION_ID,
)
class ConversionDetailView(OrderDetailView):
    model = ConversionOrder
    serializer_class = ConversionOrderSerializer
    id_field = "conversionOrderId"


class DocumentConversionsView(APIView):
    @extend_schema(
        operation_id="getDocumentConversions",
        summary="List the ids of a document's conversion orders",
        description="The caller's conversion orders of this document, newest "
        "first, as `{id}` objects (read each with `GET /conversions/{id}`). "
        "404 for an unknown document.",
        responses={200: OrderIdSerializer(many=True)},
        examples=[
            # Shown as a list of it (the answer is an array).
            OpenApiExample(
                "A conversion", value={"id": "67a33f39-6124-4ea0-9f7b-ccf691206e8e-pdf"}
            )
        ],
    )
    def get(self, request: Request, document_id: str) -> Response:
        owner_id = request_owner_id(request)
        doc = document_get(document_id, owner_id)
        orders = orders_list(ConversionOrder, owner_id).filter(document_id=doc.id)
        return Response(
            [{"id": order_id} for order_id in orders.values_list("id", flat=True)]
        )
