"""The service around the API: health, readiness, OpenAPI, Swagger UI, admin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from jobs.models import WorkerHeartbeat


def test_health_reports_the_database(client: Any) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True}


def test_ready_needs_a_recent_worker_heartbeat(client: Any) -> None:
    not_ready = client.get("/ready")
    assert not_ready.status_code == 503
    assert not_ready.json()["worker"] is False and not_ready.json()["storage"] is True
    WorkerHeartbeat.objects.create(name="w1", seen_at=timezone.now())
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


def test_ready_ignores_a_stale_heartbeat(client: Any) -> None:
    WorkerHeartbeat.objects.create(name="old", seen_at=timezone.now() - timedelta(60))
    assert client.get("/ready").status_code == 503


def test_openapi_document_is_valid_and_describes_the_contract(client: Any) -> None:
    from openapi_spec_validator import validate

    response = client.get("/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    validate(spec)
    paths = spec["paths"]
    for path in (
        "/documents",
        "/documents/{document_id}/layout",
        "/documents/{document_id}/file",
        "/transformations",
        "/transformations/{order_id}",
    ):
        assert path in paths, sorted(paths)
    layout = spec["components"]["schemas"]["DocumentLayout"]["properties"]
    assert {
        "type",
        "documentId",
        "documentTitle",
        "mimeType",
        "pageDimensionsList",
    } <= set(layout)


def test_swagger_ui_is_served(client: Any) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.parametrize(
    "path",
    [
        "/admin/documents/document/",
        "/admin/orders/transformationorder/",
        "/admin/comparisons/comparisonorder/",
        "/admin/orders/transformationorder/?state__exact=FAILED",
    ],
)
def test_admin_change_lists_render_for_staff(admin_client: Any, path: str) -> None:
    response = admin_client.get(path)
    assert response.status_code == 200


def test_order_admin_shows_what_waits_and_what_failed(admin_client: Any) -> None:
    from datetime import timedelta

    from orders.models import TransformationOrder

    now = timezone.now()
    TransformationOrder.objects.create(
        id="slow-one",
        format="pdf",
        request={},
        state="PROCESSED",
        started_at=now - timedelta(seconds=9),
        processed_at=now,
    )
    TransformationOrder.objects.create(
        id="broken-one",
        format="pdf",
        request={},
        state="FAILED",
        started_at=now,
        processed_at=now,
        error_message="page 9 is past the end",
    )
    page = admin_client.get("/admin/orders/transformationorder/").content.decode()
    # Counts of the whole table moved to the dashboard; the list counts only what
    # is small and indexed: waiting, running, failed in the last day.
    assert "failed in the last 24 h <b>1</b>" in page
    assert "slow-one" in page and "/ 9.0 s" in page
    assert "page 9 is past the end" in page


def test_admin_requires_a_staff_login(client: Any) -> None:
    response = client.get("/admin/documents/document/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_an_unexpected_failure_is_a_500_problem_that_names_only_the_request_id(
    client: Any,
    uploaded: Any,
    make_pdf: Any,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc_id = uploaded(make_pdf(1))

    def bug(*args: Any, **kwargs: Any) -> Any:
        raise FileNotFoundError("/srv/secret/path/of/the/bug")

    monkeypatch.setattr("documents.views.files.open_stored", bug)
    client.raise_request_exception = False
    response = client.get(f"/documents/{doc_id}/file", HTTP_X_REQUEST_ID="req-500-test")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == 500 and "req-500-test" in body["detail"]
    assert "Traceback" not in response.content.decode()
    assert "FileNotFoundError" not in response.content.decode()
    assert response["X-Request-ID"] == "req-500-test"
    assert any("req-500-test" in getattr(r, "request_id", "") for r in caplog.records)
