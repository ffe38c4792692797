from typing import Any

from django.urls import include, path, re_path
from rest_framework import serializers

from jobs.api import OrderCollectionView, OrderDetailView
from jobs.queueing import order_queue
from jobs.serializers import OrderProgressSerializer
from tests.toykind.models import ToyOrder


class ToyRequestSerializer(serializers.Serializer[Any]):
    word = serializers.CharField(max_length=100)


class ToySerializer(OrderProgressSerializer):
    pass


class ToyCollectionView(OrderCollectionView):
    model = ToyOrder
    request_serializer = ToyRequestSerializer
    serializer_class = ToySerializer
    id_field = "toyOrderId"
    route = "toys"

    def create_order(
        self, body: Any, *, owner_id: int | None, callback_url: str | None
    ) -> ToyOrder:
        return order_queue(
            ToyOrder,
            owner_id=owner_id,
            callback_url=callback_url,
            word=body.validated_data["word"],
        )


class ToyDetailView(OrderDetailView):
    model = ToyOrder
    serializer_class = ToySerializer
    id_field = "toyOrderId"


urlpatterns = [
    re_path(r"^toys$", ToyCollectionView.as_view()),
    re_path(r"^toys/(?P<order_id>[^/]+)$", ToyDetailView.as_view()),
    path("", include("transformsvc.urls")),
]
