"""Once an order has redacted by rules, the service keeps no clear copy of
what it removed: not in the record, the order as GET shows it, its stored
request and plan, the SQL report views, the admin page or the logs at INFO.
Only keyed hashes stand for the words (and for the text and regex rules
that named them)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import pymupdf
import pytest
from django.contrib.admin.utils import quote
from django.db import connection

from orders.models import TransformationOrder
from tests.orders.helpers import element, order_body

RULES: list[dict[str, Any]] = [
    {"text": "Zanzibar"},
    {"regex": "Qu[a-z]+tz"},
    {"preset": "email"},
]
# What the rules remove, and the text and regex rules themselves.
SECRETS = re.compile(r"zanzibar|quartz|kim\.lee|hidden-host|qu\[a-z\]", re.IGNORECASE)


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for n, line in enumerate([
        "Shipment to Zanzibar by the usual route",
        "Quartz samples for the laboratory",
        "Contact kim.lee@hidden-host.example today",
    ]):  # fmt: skip
        page.insert_text((40, 60 + 20 * n), line, fontsize=10)
    field = pymupdf.Widget()
    field.field_name, field.field_type = "port", pymupdf.PDF_WIDGET_TYPE_TEXT
    field.rect = pymupdf.Rect(40, 150, 300, 170)
    field.field_value = "Zanzibar harbour"
    page.add_widget(field)
    doc.set_metadata(
        {"title": "Zanzibar shipment", "author": "kim.lee@hidden-host.example"}
    )
    return bytes(doc.tobytes())


def _clear(where: str, value: Any) -> None:
    found = SECRETS.findall(str(value))
    assert not found, f"{where} holds {found}"


def test_no_clear_copy_of_the_removed_words_is_kept(
    client: Any,
    admin_client: Any,
    uploaded: Callable[..., str],
    run_order: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    pdf = uploaded(_pdf())
    body = order_body([element(pdf)])
    body["redactionRules"] = RULES
    caplog.set_level(logging.INFO)
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    order_id = order["transformationOrderId"]["id"]
    record = client.get(f"/transformations/{order_id}/redactions")
    assert record.status_code == 200
    assert len(record.json()["areas"]) >= 4  # the words were found and removed
    _clear("the record", record.content.decode())
    _clear("the order", client.get(f"/transformations/{order_id}").content.decode())
    _clear("the order list", client.get("/transformations").content.decode())
    row = TransformationOrder.objects.get(pk=order_id)
    _clear("the stored request", row.request)
    _clear("the stored plan", row.spec_json)
    with connection.cursor() as cursor:
        for view in ("transformation_order_report", "redaction_record_report",
                     "redaction_area_report"):  # fmt: skip
            cursor.execute(f"SELECT * FROM {view} WHERE order_id = %s", [order_id])  # noqa: S608
            rows = cursor.fetchall()
            assert rows, view
            _clear(view, rows)
    admin = admin_client.get(
        f"/admin/orders/transformationorder/{quote(order_id)}/change/"
    )
    assert admin.status_code == 200
    # The "Took" card shows the source document as it is (its title is its
    # own, and the source is kept unredacted): the rest of the page is the
    # order's.
    shown = re.sub(
        r"<h3>Took</h3>.*?</section>", "", admin.content.decode(), flags=re.S
    )
    assert "<h3>Made</h3>" in shown and "Redaction record" in shown
    _clear("the admin page", shown)
    _clear(
        "the logs",
        [(r.getMessage(), getattr(r, "__dict__", {})) for r in caplog.records],
    )
