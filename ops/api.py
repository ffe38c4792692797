"""The original's operations endpoints: readiness, service records, version.
Open to everyone, like /health (decisions §10)."""

from __future__ import annotations

from html import escape
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ops.health import service_states
from ops.versions import versions
from transformsvc.problems import Busy


class OpenView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]


class ServiceStateSerializer(serializers.Serializer[Any]):
    serviceStatus = serializers.ChoiceField(choices=["UP", "DOWN"])
    restarted = serializers.BooleanField()


class ServiceRecordsSerializer(serializers.Serializer[Any]):
    serviceStates = serializers.DictField(child=ServiceStateSerializer())


def _records() -> dict[str, Any]:
    return {
        "serviceStates": {
            name: {"serviceStatus": "UP" if up else "DOWN", "restarted": False}
            for name, up in service_states().items()
        }
    }


class ReadinessView(OpenView):
    @extend_schema(
        operation_id="getReadiness",
        description="200 with an empty body when the database, the storage and a "
        "worker answer; 503 otherwise.",
        responses={200: None},
    )
    def get(self, request: Request) -> HttpResponse:
        down = [name for name, up in service_states().items() if not up]
        if down:
            raise Busy(
                "not ready: " + ", ".join(down) + " not answering",
                headers={"Retry-After": "5"},
            )
        return HttpResponse(status=200)


class RecordsView(OpenView):
    @extend_schema(
        operation_id="getServiceRecords",
        description="The state of each part of the service, as an HTML page.",
        responses={(200, "text/html"): OpenApiTypes.STR},
    )
    def get(self, request: Request) -> HttpResponse:
        rows = "".join(
            f"<tr><td>{escape(name)}</td><td>{escape(state['serviceStatus'])}</td></tr>"
            for name, state in _records()["serviceStates"].items()
        )
        page = (
            "<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<title>transformsvc: services</title></head><body>"
            "<h1>Services</h1><table><tr><th>service</th><th>status</th></tr>"
            f"{rows}</table></body></html>"
        )
        return HttpResponse(page, content_type="text/html; charset=utf-8")


class RecordsRawView(OpenView):
    @extend_schema(
        operation_id="getServiceRecordsRaw",
        responses={200: ServiceRecordsSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response(_records())


class VersionView(OpenView):
    @extend_schema(
        operation_id="getVersion",
        description="The service's version and its engines' versions (name → version).",
        responses={
            200: {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "example": {"transformsvc": "0.1.0", "MuPDF": "1.28.2"},
            }
        },
    )
    def get(self, request: Request) -> Response:
        return Response(versions())
