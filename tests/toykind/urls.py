from typing import Any

from django.db import transaction
from django.urls import include, path, re_path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from documents.ids import new_order_id
from jobs.api import OrderDetailView
from jobs.registry import kind_of
from jobs.serializers import OrderProgressSerializer
from jobs.tasks import enqueue_on_commit
from tests.toykind.models import ToyOrder


class ToySerializer(OrderProgressSerializer):
    pass


class ToyCollectionView(APIView):
    def post(self, request: Request) -> Response:
        body: Any = request.data
        with transaction.atomic():
            order = ToyOrder.objects.create(id=new_order_id(), word=body["word"])
            enqueue_on_commit(kind_of(ToyOrder).task, order.id)
        return Response({"toyOrderId": {"id": order.id}})


class ToyDetailView(OrderDetailView):
    model = ToyOrder
    serializer_class = ToySerializer
    id_field = "toyOrderId"


urlpatterns = [
    re_path(r"^toys$", ToyCollectionView.as_view()),
    re_path(r"^toys/(?P<order_id>[^/]+)$", ToyDetailView.as_view()),
    path("", include("transformsvc.urls")),
]
