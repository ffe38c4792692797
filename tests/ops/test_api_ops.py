"""The original's operations endpoints: readiness, records, version, API docs."""

from __future__ import annotations

import re
import subprocess
from typing import Any

import django
import pikepdf
import pymupdf
import pytest
from django.test import Client
from django.utils import timezone

from jobs.models import WorkerHeartbeat


@pytest.fixture
def worker_alive() -> None:
    WorkerHeartbeat.objects.create(name="w1", seen_at=timezone.now())


def test_readiness_is_200_and_empty_when_every_part_answers(
    client: Any, worker_alive: None
) -> None:
    response = client.get("/health/readiness")
    assert response.status_code == 200 and response.content == b""


def test_readiness_is_a_503_problem_naming_what_is_missing(client: Any) -> None:
    response = client.get("/health/readiness")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert "worker" in response.json()["detail"]


def test_records_list_every_part_with_its_state(client: Any) -> None:
    raw = client.get("/health/records/raw").json()
    up = {"serviceStatus": "UP", "restarted": False}
    assert raw["serviceStates"] == {
        "database": up,
        "broker": up,
        "storage": up,
        "disk": up,
        "worker": {"serviceStatus": "DOWN", "restarted": False},
        "queue": up,
    }
    page = client.get("/health/records")
    assert page["Content-Type"].startswith("text/html")
    assert re.search(rb"<td>worker</td><td>DOWN</td>", page.content)


def test_version_names_the_engines_as_installed(client: Any) -> None:
    body = client.get("/version").json()
    assert body["PyMuPDF"] == pymupdf.VersionBind
    assert body["MuPDF"] == pymupdf.VersionFitz
    assert body["pikepdf"] == pikepdf.__version__
    assert body["qpdf"] == pikepdf.__libqpdf_version__
    assert body["Django"] == django.get_version()
    assert re.fullmatch(r"3\.\d+\.\d+", body["Python"])
    soffice = subprocess.run(
        ["soffice", "--version"], capture_output=True, text=True, check=False
    ).stdout
    assert body["LibreOffice"] in soffice
    tesseract = subprocess.run(
        ["tesseract", "--version"], capture_output=True, text=True, check=False
    ).stdout
    assert body["Tesseract"] in tesseract
    assert body["transformsvc"] and body["pyHanko"]
    assert all(isinstance(v, str) for v in body.values())


def test_operations_and_api_docs_need_no_key(settings: Any) -> None:
    settings.TRANSFORMSVC_AUTH = "token"
    anonymous = Client()
    for path in ("/version", "/health/records", "/health/records/raw"):
        assert anonymous.get(path).status_code == 200, path
    assert anonymous.get("/health/readiness").status_code in (200, 503)
    assert anonymous.get("/documents/x/check").status_code == 401


def test_the_api_description_is_at_the_originals_paths_too(client: Any) -> None:
    ours = client.get("/openapi.json").json()
    theirs = client.get("/v3/api-docs").json()
    assert theirs == ours and "/documents/{document_id}/bookmarks" in str(ours)
    ui = client.get("/swagger-ui/index.html")
    assert ui.status_code == 200 and b"swagger" in ui.content.lower()
