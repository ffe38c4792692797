"""The HTTP views every kind of order shares.

A kind subclasses `OrderCollectionView` (POST creates, GET lists, DELETE deletes
all) and `OrderDetailView` (GET with a long poll, DELETE) with its model, its
serializers and the wire name of its id, implements `create_order`, and declares
its OpenAPI operations on the subclasses. Creating goes through one path for
every kind: `Idempotency-Key`, the body's `callbackUrl` (or the key's default),
refused requests counted for reports, the `Location` of the new order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar
from urllib.parse import quote

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer, Serializer
from rest_framework.views import APIView

from accounts.auth import request_owner_id
from idempotency.api import idempotent, json_digest
from jobs import selectors, services
from jobs.callbacks import callback_url_for
from jobs.models import OrderBase
from jobs.notify import wait_until_final
from jobs.refusals import owner_or_none, record_refusal
from jobs.registry import kind_of
from jobs.serializers import (
    DeleteQuerySerializer,
    LongPollQuerySerializer,
    OrderListQuerySerializer,
)
from transformsvc.conf import service
from transformsvc.pagination import paginate_array

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


def long_poll_ms(request: Request) -> int:
    """`?timeoutMs=`, capped (decisions §6)."""
    query = LongPollQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return min(query.validated_data["timeoutMs"], service().long_poll_cap_ms)


def delete_results_asked(request: Request) -> bool:
    """`?deleteResults=true`: a DELETE removes the documents the orders made."""
    query = DeleteQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return bool(query.validated_data["deleteResults"])


class OrderCollectionView(APIView):
    model: ClassVar[type[OrderBase]]
    request_serializer: ClassVar[type[Serializer[Any]]]
    serializer_class: ClassVar[type[BaseSerializer[Any]]]
    id_field: ClassVar[str]  # e.g. "transformationOrderId"
    route: ClassVar[str]  # e.g. "transformations"

    def create_order(
        self, body: Any, *, owner_id: int | None, callback_url: str | None
    ) -> OrderBase:
        """The kind's create service, called with the validated request."""
        raise NotImplementedError

    def post(self, request: Request) -> Response:
        return idempotent(
            request,
            self.route,
            lambda: (self._create(request), json_digest(request)),
            lambda: json_digest(request),
        )

    def _create(self, request: Request) -> Response:
        body = self.request_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        order = self.create_order(
            body,
            owner_id=request_owner_id(request),
            callback_url=callback_url_for(
                body.validated_data.get("callbackUrl"), request.auth
            ),
        )
        return Response(
            {self.id_field: {"id": order.id}},
            headers={"Location": f"/{self.route}/" + quote(order.id, safe="")},
        )

    def get(self, request: Request) -> Response:
        query = OrderListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        orders = selectors.orders_list(
            self.model,
            request_owner_id(request),
            state=query.validated_data.get("state"),
        )
        return paginate_array(
            request, orders, self.serializer_class, query.validated_data
        )

    def delete(self, request: Request) -> Response:
        services.orders_delete_all(
            self.model,
            owner_id=request_owner_id(request),
            delete_results=delete_results_asked(request),
        )
        return Response(status=200)

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        if self.request.method == "POST":
            record_refusal(
                kind_of(self.model).name,
                exc,
                response.status_code,
                response.data,
                owner_or_none(self.request),
            )
        return response


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
            self.model,
            order_id=order_id,
            owner_id=request_owner_id(request),
            delete_results=delete_results_asked(request),
        )
        return Response({self.id_field: {"id": order_id}})


def _examples(values: Mapping[str, Any], **flags: Any) -> list[OpenApiExample]:
    return [
        OpenApiExample(name, value=value, **flags) for name, value in values.items()
    ]


def collection_schema(
    *,
    noun: str,
    create: str,
    list_: str,
    delete: str,
    request: type[Serializer[Any]],
    created: Any,
    order: type[BaseSerializer[Any]],
    create_description: str = "",
    answers: Mapping[str, Any] | None = None,
    requests: Mapping[str, Any] | None = None,
    order_example: Any = None,
    id_example: Any = None,
) -> Any:
    """The OpenAPI operations of a kind's `OrderCollectionView` subclass (a class
    decorator): `noun` names the orders ("transformation orders"); `requests`
    are named example bodies, `order_example` an order as GET shows it and
    `id_example` the answer to a POST; `created` is what a POST answers (a
    serializer or a schema), `answers` other named examples of it."""
    return extend_schema_view(
        post=extend_schema(
            operation_id=create,
            summary=f"Create one of the {noun}",
            description=create_description
            + "\n\nAnswers at once with the new order's id (and its `Location`); "
            "the order is QUEUED and a worker runs it. Read it with GET (long "
            "poll with `timeoutMs`) or name a `callbackUrl`. With an "
            "`Idempotency-Key` header a retried request answers the first "
            "order. A body that cannot make an order is refused with 400 and "
            "the fields at fault; a full queue answers 429 with Retry-After.",
            request=request,
            responses={200: created},
            examples=[
                *_examples(requests or {}, request_only=True),
                OpenApiExample(
                    "The new order's id",
                    value=id_example,
                    response_only=True,
                    status_codes=["200"],
                ),
                *_examples(answers or {}, response_only=True, status_codes=["200"]),
            ],
        ),
        get=extend_schema(
            operation_id=list_,
            summary=f"List the caller's {noun}",
            description="Newest first, one page (`page`, `pageSize`); the `Link` "
            "header (RFC 8288) points at the next and previous pages, "
            "`X-Total-Count` counts them all. `state` keeps the orders in one "
            "state. Each order as GET of its id shows it.",
            parameters=[OrderListQuerySerializer, *PAGE_HEADERS],
            responses={200: order(many=True)},
            examples=[
                # Shown as a list of it (the answer is an array).
                OpenApiExample("An order", value=order_example, response_only=True)
            ],
        ),
        delete=extend_schema(
            operation_id=delete,
            summary=f"Delete all of the caller's {noun}",
            description=f"Every one of the caller's {noun}: queued ones are "
            "cancelled, running ones end without a result. Their result "
            "documents stay unless `deleteResults=true`. 200 with an empty "
            "body. A deleted order's id answers 404 afterwards.",
            parameters=[DeleteQuerySerializer],
            responses={200: None},
        ),
    )


def detail_schema(
    *,
    noun: str,
    get: str,
    delete: str,
    order: type[BaseSerializer[Any]],
    deleted: type[Serializer[Any]],
    orders: Mapping[str, Any] | None = None,
    id_example: Any = None,
) -> Any:
    """The OpenAPI operations of a kind's `OrderDetailView` subclass; `orders`
    are named examples of an order as GET shows it."""
    return extend_schema_view(
        get=extend_schema(
            operation_id=get,
            summary=f"Read one of the {noun}, waiting up to timeoutMs for it to end",
            description="The order: `currentState` (QUEUED, PROCESSING, "
            "PROCESSED or FAILED), its result's id once PROCESSED, "
            "`errorMessage` once FAILED, dates and the times it queued and "
            "ran (ms). With `timeoutMs` the answer waits until the order ends "
            "or the time is up (capped at 60 s), whichever comes first. 404 "
            "for an unknown, deleted or another caller's order.",
            parameters=[LongPollQuerySerializer],
            responses={200: order},
            examples=_examples(orders or {}, response_only=True),
        ),
        delete=extend_schema(
            operation_id=delete,
            summary=f"Delete one of the {noun} (a queued one is cancelled)",
            description="Deletes the order: a QUEUED one is cancelled, a "
            "PROCESSING one is ended by its worker, which discards the result. "
            "The documents it made stay unless `deleteResults=true`. Answers "
            "the deleted order's id; the id answers 404 afterwards.",
            parameters=[DeleteQuerySerializer],
            responses={200: deleted},
            examples=[
                OpenApiExample(
                    "The deleted order's id", value=id_example, response_only=True
                )
            ],
        ),
    )
