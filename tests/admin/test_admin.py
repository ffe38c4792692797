"""What staff do in the admin: find orders by document, follow links, retry,
cancel, delete as the API does; see pictures whatever the API's auth mode."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.contrib.admin.utils import quote as admin_quote
from django.test import Client

from documents.models import DeletedDocument, Document
from jobs.models import OrderInput
from orders.models import TransformationOrder
from tests.admin.dataset import Dataset, stored_file

ORDERS = "/admin/orders/transformationorder/"
DOCUMENTS = "/admin/documents/document/"


def change(base: str, pk: str, suffix: str = "change/") -> str:
    return f"{base}{admin_quote(pk)}/{suffix}"


def html(staff: Any, url: str, **query: Any) -> str:
    response = staff.get(url, query)
    assert response.status_code == 200, url
    return response.content.decode().replace("&amp;", "&")


def test_staff_find_orders_by_document_and_follow_the_links(
    staff: Any, small: Dataset
) -> None:
    report = small.documents["Annual report 2026"]
    used = OrderInput.objects.filter(kind="transformation", document_id=report)
    live = list(TransformationOrder.objects.filter(pk__in=used.values("order_id")))
    assert len(live) >= 4
    found = html(staff, ORDERS, q=report)
    assert all(o.pk in found for o in live)
    assert live[0].pk in html(staff, ORDERS, q=live[0].pk[:8])
    assert all(o.pk in html(staff, ORDERS, input=report) for o in live)

    # document → its orders, its pictures, its layout; result → the order that made it
    page = html(staff, change(DOCUMENTS, report))
    assert f"{ORDERS}?input={quote(report, safe='')}" in page
    assert "/page/0.png?width=720" in page and "/download/" in page
    assert "Layout: 12 pages" in page and "595 × 842" in page
    made = TransformationOrder.objects.filter(state="PROCESSED", output_count=1).first()
    assert made is not None and made.result_document_id
    assert change(ORDERS, made.pk) in html(
        staff, change(DOCUMENTS, made.result_document_id)
    )

    # order → its inputs, its outputs (each downloadable)
    several = TransformationOrder.objects.get(output_count=2, state="PROCESSED")
    page = html(staff, change(ORDERS, several.pk))
    assert change(DOCUMENTS, small.documents["Quarterly slides"]) in page
    for child in several.output_ids:
        assert change(DOCUMENTS, child) in page
        download = staff.get(change(DOCUMENTS, child, "download/"))
        assert b"".join(download.streaming_content).startswith(b"%PDF")

    # lists people can read at a glance
    documents = html(staff, DOCUMENTS)
    assert " KB" in documents and not re.search(r'field-size_human">\d{4}', documents)
    orders = html(staff, ORDERS)
    assert 'loading="lazy"' in orders and "ts-copy" in orders
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", orders)

    # the dashboard, and no "successful task" for a failed order
    for days in (1, 7, 30, 90):
        assert html(staff, "/admin/dashboard/", days=days).count("<svg") >= 7
    assert "Damaged input" in html(staff, "/admin/dashboard/")
    index = html(staff, "/admin/")
    assert "Successful tasks" not in index and "Failed tasks" not in index
    assert "Dashboard" in index
    assert staff.get("/admin/django_q/success/").status_code == 404


def test_staff_retry_cancel_and_delete_orders_as_the_api_would(
    staff: Any,
    small: Dataset,
    client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # A retry is offered for what it can cure (a worker that died), not for a
    # damaged input, which would fail the same way again.
    failed = TransformationOrder.objects.get(error_category="worker_lost")
    damaged = TransformationOrder.objects.filter(
        state="FAILED", error_category="damaged_input"
    ).first()
    assert damaged is not None
    assert "Retry as a new order" in html(staff, change(ORDERS, failed.pk))
    page = html(staff, change(ORDERS, damaged.pk))
    assert "Retry as a new order" not in page
    assert "Not offered for retry" in page and "Damaged input" in page
    with django_capture_on_commit_callbacks(execute=False):
        response = staff.post(
            ORDERS,
            {"action": "retry_selected", "_selected_action": [failed.pk, damaged.pk]},
        )
        assert staff.post(change(ORDERS, damaged.pk, "retry/")).status_code == 302
    assert response.status_code == 302
    retry = TransformationOrder.objects.get(retry_of=failed)
    assert retry.state == "QUEUED" and retry.request == failed.request
    assert not TransformationOrder.history.filter(retry_of=damaged).exists()
    assert change(ORDERS, retry.pk) in html(staff, change(ORDERS, failed.pk))

    queued = small.queued[0]
    assert staff.post(change(ORDERS, queued, "cancel/")).status_code == 302
    assert client.get(f"/transformations/{queued}").status_code == 404
    assert TransformationOrder.history.get(pk=queued).is_cancelled
    deleted = html(staff, ORDERS, deleted="yes")
    assert queued[:8] in deleted and "CANCELLED" in deleted

    order = TransformationOrder.objects.filter(state="PROCESSED").first()
    assert order is not None
    warning = html(staff, change(ORDERS, order.pk, "delete/"))
    assert "report row stays" in warning and "documents it made stay" in warning
    staff.post(change(ORDERS, order.pk, "delete/"), {"post": "yes"})
    assert client.get(f"/transformations/{order.pk}").status_code == 404
    assert TransformationOrder.history.filter(pk=order.pk).exists()
    assert Document.objects.filter(pk=order.result_document_id).exists()


def test_staff_delete_documents_as_the_api_would_and_see_pictures_in_token_mode(
    staff: Any,
    small: Dataset,
    client: Client,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    image = small.documents["Chart scan"]
    rendition = Document.objects.get(rendition_of_id=image)
    files = [stored_file(image), stored_file(rendition.pk)]
    warning = html(staff, change(DOCUMENTS, image, "delete/"))
    assert "its PDF rendition" in warning and "file is removed" in warning
    with django_capture_on_commit_callbacks(execute=True):  # files go at commit
        staff.post(change(DOCUMENTS, image, "delete/"), {"post": "yes"})
    assert client.get(f"/documents/{quote(image, safe='')}").status_code == 404
    assert not any(Path(f).exists() for f in files)
    assert {image, rendition.pk} <= set(
        DeletedDocument.objects.values_list("document_id", flat=True)
    )

    settings.TRANSFORMSVC_AUTH = "token"
    doc = small.documents["Annual report 2026"]
    api_image = f"/documents/{quote(doc, safe='')}/pages/0/image?width=96"
    assert client.get(api_image).status_code == 401
    picture = staff.get(change(DOCUMENTS, doc, "page/0.png") + "?width=96")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert b"".join(picture.streaming_content).startswith(b"\x89PNG")
    anonymous = Client().get(change(DOCUMENTS, doc, "page/0.png") + "?width=96")
    assert anonymous.status_code == 302  # to the admin's login
