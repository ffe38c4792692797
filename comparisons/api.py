"""HTTP endpoints of comparisons."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
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
from documents.examples import position_text
from jobs.api import (
    OrderCollectionView,
    OrderDetailView,
    collection_schema,
    detail_schema,
)

LEFT, RIGHT = "invoice-2024-117", "invoice-2024-117-v2"

DIFFERENCE = {
    "leftDocumentId": LEFT,
    "rightDocumentId": RIGHT,
    "textChanges": [
        {
            "changeType": "MODIFY",
            "fragments": [
                {"endOfLine": True, "pageNumber": 0, "text": "GmbH", "type": "DELETE"},
                {"endOfLine": True, "pageNumber": 0, "text": "AG", "type": "ADD"},
            ],
            "left": position_text(0, 254.854, "GmbH", [10.892, 11.662, 7.784, 10.108]),
            "right": position_text(0, 254.854, "AG", [9.338, 10.892]),
        }
    ],
}

COMPARISON_ID = {"comparisonOrderId": {"id": "6a24a774-48d5-43d4-9882-b7db836018ce"}}

COMPARISON = {
    "currentState": "PROCESSED",
    "errorMessage": None,
    "queuedDate": "2026-11-27T13:06:21.929+00:00",
    "processedDate": "2026-11-27T13:06:22.462+00:00",
    "queuedTime": 17,
    "processingTime": 515,
    "callbackUrl": None,
    "comparisonOrderId": COMPARISON_ID["comparisonOrderId"],
    "fuzz": 3.0,
    "highlightColor": "FF0000",
    "lowlightColor": "",
    "leftDocumentId": LEFT,
    "rightDocumentId": RIGHT,
    "targetDocumentId": "b64_NTg5N2QzYzgtYzdlMC00NmE2LTg4ZjMtMjQ2YjQxOGQzYzRj",
}


class DifferenceView(APIView):
    @extend_schema(
        operation_id="getDifference",
        summary="Compare the text of two documents, word by word",
        description="The words that changed between the left and the right "
        "document (the original's DocumentCompareResult): each change is "
        "ADD, DELETE or MODIFY with its fragments and the lines they sit on, "
        "positions in points from the page's top left. Answers at once (no "
        "order); a document still being converted is waited for. 404 when "
        "either id is unknown.",
        parameters=[DifferenceQuerySerializer],
        responses={200: DocumentCompareResultSerializer},
        examples=[OpenApiExample("One word changed", value=DIFFERENCE)],
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


NOUN = "comparison orders"


@collection_schema(
    noun=NOUN,
    create="createComparison",
    list_="listComparisons",
    delete="deleteAllComparisons",
    request=ComparisonRequestSerializer,
    created=ComparisonOrderIdSerializer,
    order=ComparisonOrderSerializer,
    create_description="The original's pixel comparison: both documents' "
    "pages are drawn and compared, and the result (`targetDocumentId`) is a "
    "PDF of the right document's pages as images, the pixels that differ "
    "painted `highlightColor` (hex RGB, default `FF0000`) and, when "
    "`lowlightColor` is set, the other non-white pixels tinted with it. A "
    "pixel differs when some RGB channel differs by more than `fuzz` percent "
    "(0 to 100, default 3; 0 = exact).",
    requests={
        "Two versions of an invoice": {
            "leftDocumentId": LEFT,
            "rightDocumentId": RIGHT,
        },
        "With colours and tolerance": {
            "leftDocumentId": LEFT,
            "rightDocumentId": RIGHT,
            "fuzz": 10,
            "highlightColor": "#0000FF",
            "lowlightColor": "CCCCCC",
            "callbackUrl": "https://dms.example.com/hooks/transformsvc",
        },
    },
    order_example=COMPARISON,
    id_example=COMPARISON_ID,
)
class ComparisonCollectionView(OrderCollectionView):
    model = ComparisonOrder
    request_serializer = ComparisonRequestSerializer
    serializer_class = ComparisonOrderSerializer
    id_field = "comparisonOrderId"
    route = "comparisons"

    def create_order(
        self, body: Any, *, owner_id: int | None, callback_url: str | None
    ) -> ComparisonOrder:
        return services.comparison_create(
            spec=body.spec(), owner_id=owner_id, callback_url=callback_url
        )


@detail_schema(
    noun=NOUN,
    get="getComparison",
    delete="deleteComparison",
    order=ComparisonOrderSerializer,
    deleted=ComparisonOrderIdSerializer,
    orders={"Processed: the highlighted PDF is targetDocumentId": COMPARISON},
    id_example=COMPARISON_ID,
)
class ComparisonDetailView(OrderDetailView):
    model = ComparisonOrder
    serializer_class = ComparisonOrderSerializer
    id_field = "comparisonOrderId"
