"""Orders and documents deleted through the API are gone for the API, and still
counted by the reports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection

from documents.models import Document
from orders.models import TransformationOrder
from tests.conftest import doc_url
from tests.orders.helpers import element, file_path, order_body
from tests.toykind import tasks as toy_tasks
from tests.toykind.models import ToyOrder


def report_rows(sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def post_order(client: Any, body: dict[str, Any]) -> str:
    """POST without running the worker: the order stays QUEUED."""
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return str(response.json()["transformationOrderId"]["id"])


def test_a_queued_order_deleted_through_the_api_is_gone_and_reported_cancelled(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(2))
    order_id = post_order(client, order_body([element(doc)]))
    assert client.delete(f"/transformations/{order_id}").status_code == 200

    assert client.get(f"/transformations/{order_id}").status_code == 404
    assert client.get(f"/transformations/{order_id}?timeoutMs=50").status_code == 404
    assert client.delete(f"/transformations/{order_id}").status_code == 404
    listed = client.get("/transformations").json()
    assert order_id not in [o["transformationOrderId"]["id"] for o in listed]
    assert listed == []
    rows = report_rows(
        "SELECT state, deleted_at IS NOT NULL, input_pages "
        "FROM transformation_order_report WHERE order_id = %s",
        order_id,
    )
    assert rows == [("CANCELLED", True, 2)]


def test_a_processed_order_deleted_keeps_its_report_row_as_processed(
    client: Any,
    run_order: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    doc = uploaded(make_pdf(3))
    order = run_order(order_body([element(doc, (1, 2))]))
    order_id = order["transformationOrderId"]["id"]
    client.delete(f"/transformations/{order_id}")
    rows = report_rows(
        "SELECT state, output_pages, input_pages, deleted_at IS NOT NULL "
        "FROM transformation_order_report WHERE order_id = %s",
        order_id,
    )
    assert rows == [("PROCESSED", 2, 2, True)]
    assert report_rows("SELECT count(*) FROM transformation_order_report") == [(1,)]


def test_an_order_deleted_while_it_runs_reports_how_it_ended() -> None:
    toy_tasks.DISCARDED.clear()
    ToyOrder.objects.create(id="toy-v", word="vanish")
    toy_tasks.run_toy("toy-v")
    assert toy_tasks.DISCARDED == ["toy-v"]  # its result is discarded
    assert not ToyOrder.objects.filter(pk="toy-v").exists()
    ended = ToyOrder.history.get(pk="toy-v")
    assert ended.state == "PROCESSED" and ended.deleted_at and ended.processed_at


def test_the_worker_never_runs_a_cancelled_order(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    order_id = post_order(client, order_body([element(uploaded(make_pdf(1)))]))
    client.delete(f"/transformations/{order_id}")
    from orders.tasks import run_transformation

    run_transformation(order_id)
    order = TransformationOrder.history.get(pk=order_id)
    assert (order.state, order.started_at, order.result_document_id) == (
        "QUEUED",
        None,
        None,
    )


def test_a_deleted_document_is_404_its_file_gone_and_its_report_row_kept(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    doc_id = uploaded(make_pdf(4), documentTitle="minutes")
    path = file_path(doc_id)
    with django_capture_on_commit_callbacks(execute=True):  # files go at commit
        assert client.delete(doc_url(doc_id)).status_code == 200

    assert client.get(doc_url(doc_id)).status_code == 404
    assert not Path(path).exists()
    assert not Document.objects.filter(pk=doc_id).exists()
    rows = report_rows(
        "SELECT title, format, pages, origin, deleted_at IS NOT NULL "
        "FROM document_report WHERE document_id = %s",
        doc_id,
    )
    assert rows == [("minutes", "pdf", 4, "UPLOAD", True)]
    # The id is free again, as before: an upload may reuse it.
    assert uploaded(make_pdf(1), documentId=doc_id) == doc_id
    assert report_rows(
        "SELECT count(*), count(deleted_at) FROM document_report WHERE document_id = %s",
        doc_id,
    ) == [(2, 1)]


def test_an_image_deleted_takes_its_rendition_along_in_the_report_too(
    client: Any, uploaded: Callable[..., str]
) -> None:
    import pymupdf

    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
    doc_id = uploaded(pix.tobytes("png"))
    client.delete(doc_url(doc_id))
    rows = report_rows(
        "SELECT format, origin, rendition_of_id FROM document_report "
        "WHERE deleted_at IS NOT NULL ORDER BY format"
    )
    assert rows == [("pdf", "RESULT", doc_id), ("png", "UPLOAD", None)]
