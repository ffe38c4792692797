"""HTTP endpoints of transformation orders."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from jobs import selectors
from jobs.api import (
    OrderCollectionView,
    OrderDetailView,
    collection_schema,
    detail_schema,
)
from orders import examples, services
from orders.dryrun import dry_run
from orders.models import TransformationOrder
from orders.serializers import (
    DryRunQuerySerializer,
    TransformationOrderIdSerializer,
    TransformationOrderSerializer,
    TransformationRequestSerializer,
)

NOUN = "transformation orders"


@extend_schema_view(post=extend_schema(parameters=[DryRunQuerySerializer]))
@collection_schema(
    noun=NOUN,
    create="createTransformation",
    list_="listTransformations",
    delete="deleteAllTransformations",
    request=TransformationRequestSerializer,
    created=examples.CREATED_SCHEMA,
    order=TransformationOrderSerializer,
    create_description="The original's order: each of `transformationDetails` "
    "makes one output from the pages of its `transformationElements` "
    "(`pagesSelectionList` counts pages from 1), in `format` `pdf` (annotations "
    "burnt in), `pdf-fdf` (annotations kept live) or `zip` (one file per "
    "output; several outputs also become documents of their own, "
    "`transformationResultDocumentIDs`). `annotations` are drawn; those of type "
    "`RedactElemType` (an area, `position`) and `RedactTextElemType` (text "
    "boxes, `coords`) are redacted: what is under them is removed and the "
    "output is verified before it is delivered.\n\n"
    "Additions: `redactionRules` redact by what, not where (exact text, "
    "regular expressions, presets: e-mail, phone, iban, card, ssn, fr-nir, "
    "nl-bsn, de-tax-id, ipv4, ipv6, date-of-birth, url); with `?dryRun=true` "
    "the answer is the matches they would redact (no order is made): "
    "`{dryRun, rules, count, matches: [{id, documentId, page, target, place, "
    "rule, ruleName, coords, text | textHmac}]}`; `acceptedMatches` then names "
    "the ones the order redacts. `operations` (per order or per output) and "
    "`keepAttachments`: see the README.",
    requests=examples.REQUESTS,
    order_example=examples.PROCESSED,
    id_example=examples.ORDER_ID_ANSWER,
    answers={"A dry run's matches (?dryRun=true)": examples.DRY_RUN},
)
class TransformationCollectionView(OrderCollectionView):
    model = TransformationOrder
    request_serializer = TransformationRequestSerializer
    serializer_class = TransformationOrderSerializer
    id_field = "transformationOrderId"
    route = "transformations"

    def post(self, request: Request) -> Response:
        """`?dryRun=true`: the matches the order's redaction rules would
        redact, at once; no order is made, nothing is produced."""
        query = DryRunQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        if not query.validated_data["dryRun"]:
            return super().post(request)
        body = self.request_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(
            dry_run(
                spec=body.spec(),
                owner_id=request_owner_id(request),
                clear=query.validated_data["matchText"] == "clear",
            )
        )

    def create_order(
        self, body: Any, *, owner_id: int | None, callback_url: str | None
    ) -> TransformationOrder:
        return services.order_create(
            spec=body.spec(),
            request=body.normalised(),
            owner_id=owner_id,
            callback_url=callback_url,
        )


@detail_schema(
    noun=NOUN,
    get="getTransformation",
    delete="deleteTransformation",
    order=TransformationOrderSerializer,
    deleted=TransformationOrderIdSerializer,
    orders=examples.ORDERS,
    id_example=examples.ORDER_ID_ANSWER,
)
class TransformationDetailView(OrderDetailView):
    model = TransformationOrder
    serializer_class = TransformationOrderSerializer
    id_field = "transformationOrderId"


@extend_schema_view(
    get=extend_schema(
        operation_id="getTransformationRedactions",
        summary="Read the redaction record of a transformation order",
        description="Per output page each area (a rule's match or coordinates) "
        "with the glyphs, images, paths, annotations and fields it removed, the "
        "copies scrubbed elsewhere, what the verification read, and the sha256 of "
        "the inputs and outputs. Removed text appears as keyed hashes only. 404 "
        "until a redacting order has ended PROCESSED.",
        parameters=[OpenApiParameter("order_id", str, location=OpenApiParameter.PATH)],
        responses={200: dict[str, Any]},
        examples=[
            OpenApiExample(
                "One area found by a text rule", value=examples.REDACTION_RECORD
            )
        ],
    )
)
class TransformationRedactionsView(APIView):
    def get(self, request: Request, order_id: str) -> Response:
        order = selectors.order_get(
            TransformationOrder, order_id, request_owner_id(request)
        )
        return Response(services.redaction_record(order))
