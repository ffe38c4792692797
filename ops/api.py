"""The original's operations endpoints: readiness, service records, version.
Open to everyone, like /health (decisions §10)."""

from __future__ import annotations

from html import escape
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ops.health import service_states
from ops.load import uptime, weather
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
        summary="Tell whether the service is ready (the original's probe)",
        description="The original's readiness path: 200 with an empty body "
        "when the database, the queue's broker, the storage, the disk, a "
        "worker and the queue answer, as `/ready` checks them; else a 503 "
        "problem naming the parts not answering, with Retry-After. No key "
        "needed.",
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
        summary="Show the state of each part of the service, as a web page",
        description="The original's service records page: a table of the "
        "parts `/ready` checks (database, broker, storage, disk, worker, "
        "queue), each UP or DOWN. No key needed; for programs, "
        "`/health/records/raw`.",
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
        summary="Read the state of each part of the service",
        description="The original's service records as JSON: each part "
        "`/ready` checks, `serviceStatus` UP or DOWN (`restarted` is always "
        "false). Answers 200 whatever the states; no key needed.",
        responses={200: ServiceRecordsSerializer},
        examples=[
            OpenApiExample(
                "A worker missing",
                value={
                    "serviceStates": {
                        name: {
                            "serviceStatus": "DOWN" if name == "worker" else "UP",
                            "restarted": False,
                        }
                        for name in (
                            "database",
                            "broker",
                            "storage",
                            "disk",
                            "worker",
                            "queue",
                        )
                    }
                },
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(_records())


class VersionView(OpenView):
    @extend_schema(
        operation_id="getVersion",
        summary="Read the versions of the service and its engines",
        description="The service's version and its engines' versions (name → "
        "version): PyMuPDF/MuPDF, pikepdf/qpdf, pyHanko, LibreOffice, "
        "Tesseract, Python, Django. No key needed.",
        responses={
            200: {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "example": {
                    "transformsvc": "0.1.0",
                    "PyMuPDF": "1.28.2",
                    "MuPDF": "1.28.2",
                    "pikepdf": "10.18.0",
                    "qpdf": "12.4.2",
                    "LibreOffice": "7.4.7.2",
                    "Tesseract": "5.3.0",
                },
            }
        },
    )
    def get(self, request: Request) -> Response:
        return Response(versions())


class MetadataView(OpenView):
    @extend_schema(
        operation_id="getMetadata",
        summary="Read the service's version and uptime, as the original's broker",
        description="A flat map: `broker.version` (this service's version) and "
        "`broker.uptime` (how long the answering process has run, `3h 15m`).",
        responses={
            200: {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "example": {"broker.version": "0.1.0", "broker.uptime": "3h 15m"},
            }
        },
    )
    def get(self, request: Request) -> Response:
        return Response(
            {"broker.version": versions()["transformsvc"], "broker.uptime": uptime()}
        )


class WeatherView(OpenView):
    @extend_schema(
        operation_id="getWeather",
        summary="Read the service's load score, lower is better",
        description="A plain number: the 1-minute CPU load average per core of "
        "the answering machine (1.0 when every core is busy) plus the orders "
        "waiting for a worker per live worker process. About 0 when idle.",
        responses={200: {"type": "number", "format": "float", "example": 0.35}},
    )
    def get(self, request: Request) -> Response:
        return Response(weather())
