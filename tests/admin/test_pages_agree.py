"""Every admin list fits 1000 px and the dashboard cuts no label (measured in
headless Chromium, served in process by the test client); what the admin's
pages say agrees with itself and with the database: states (cancelled, deleted,
retried), one name per document, pages counted from 1, retry offered only where
it can cure; the documents list is a library (uploads by default, formats as
people name them, words in any order); the order search takes any word; a
document without pages says why."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from email.message import EmailMessage
from html import unescape
from typing import Any

import docx
import pytest
from django.contrib import admin
from django.urls import reverse

from accounts.keys import apikey_create
from documents.models import Document
from jobs.models import OrderInput
from orders.models import TransformationOrder
from tests.admin import dataset
from tests.admin import documents as samples
from tests.admin.chromium import ServedChromium
from tests.admin.client_api import ClientApi
from tests.admin.dataset import Dataset
from tests.admin.test_admin import DOCUMENTS, ORDERS, change, html
from tests.live import ROOT

OUT = ROOT / "var" / "screenshots"

# How far the list of results reaches past its box (0: no horizontal scroll),
# and whether the sorted column and the Error column are in view.
MEASURE_LIST = """(() => {
  const box = document.querySelector('#changelist .results');
  if (!box) return null;
  const right = box.getBoundingClientRect().right;
  const seen = css => {
    const th = document.querySelector('#result_list th.' + css);
    return th ? th.getBoundingClientRect().right <= right + 1 : null;
  };
  return {
    overflow: box.scrollWidth - box.clientWidth,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    sorted: seen('sorted'),
    error: seen('column-error'),
  };
})()"""

# Text of the dashboard's charts that leaves its drawing, or was shortened.
MEASURE_DASHBOARD = """(() => {
  const cut = [];
  document.querySelectorAll('.ts-panel svg').forEach(svg => {
    const view = svg.viewBox.baseVal;
    svg.querySelectorAll('text').forEach(t => {
      const b = t.getBBox();
      if (b.x < view.x - 0.5 || b.x + b.width > view.x + view.width + 0.5)
        cut.push(t.textContent);
      if (t.textContent.endsWith('…')) cut.push(t.textContent);
    });
  });
  document.querySelectorAll('.ts-panel').forEach(p => {
    if (p.scrollWidth > p.clientWidth + 1)
      cut.push('panel: ' + p.querySelector('h2, b').textContent);
  });
  const page = document.documentElement;
  return {cut: cut, page: page.scrollWidth - page.clientWidth};
})()"""


@pytest.fixture(scope="module")
def browser() -> Iterator[ServedChromium]:
    chromium = ServedChromium(width=1400, height=900)
    try:
        yield chromium
    finally:
        chromium.client = None  # the test's database is gone: answer nothing more
        chromium.close()


def changelists() -> list[str]:
    return sorted(
        reverse(f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist")
        for m in admin.site._registry
    )


def order_of_a_long_name(client: Any, settings: Any) -> None:
    """An order of an owner whose name is longer than the dashboard's labels
    used to be (the busiest owners chart)."""
    settings.TRANSFORMSVC_AUTH = "token"
    _, key = apikey_create(owner_name="records-office.lyon@example.org")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    uploaded = client.post(
        "/documents?documentTitle=Minutes",
        data=samples.invoice(7),
        content_type="application/octet-stream",
        **headers,
    )
    assert uploaded.status_code == 200
    order = {"transformationElements": [dataset.element(uploaded.json()["id"])]}
    body = {"format": "pdf", "transformationDetails": [order]}
    made = client.post(
        "/transformations", data=body, content_type="application/json", **headers
    )
    assert made.status_code == 200
    settings.TRANSFORMSVC_AUTH = ""


LISTS = (
    ORDERS,
    "/admin/comparisons/comparisonorder/",
    "/admin/conversions/conversionorder/",
)


def listed(page: str) -> set[str]:
    """The ids of the rows of a list page (their copy buttons)."""
    rows = page.split('id="result_list"', 1)[-1]
    return set(re.findall(r'<tr[^>]*>.*?data-copy="([^"]+)"', rows, re.S))


def row_of(page: str, order_id: str) -> str:
    """The row of the document page's order table that links `order_id`."""
    table = page.split('class="ts-kv ts-used"', 1)[1].split("</table>", 1)[0]
    rows = [r for r in table.split("<tr>") if order_id[:12] in r]
    assert len(rows) == 1, order_id
    return rows[0]


def viewer_config(page: str) -> Any:
    """The viewer's settings as the page hands them to its script."""
    script = page.split('id="ts-viewer-config"', 1)[1].split(">", 1)[1]
    return json.loads(unescape(script.split("</script>", 1)[0]))


def broken_docx() -> bytes:
    """A Word file whose body is not XML: LibreOffice cannot open it."""
    made = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("Minutes of the March meeting")
    document.save(made)
    source = zipfile.ZipFile(io.BytesIO(made.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as broken:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                data = b"<w:document this is not XML"
            broken.writestr(item, data)
    return out.getvalue()


def mail() -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = "records@example.org", "alice@example.org"
    message["Subject"] = "Invoice of March"
    message.set_content("Hello Alice,\nthe invoice is attached.\n")
    message.add_attachment(
        samples.invoice(1077),
        maintype="application",
        subtype="pdf",
        filename="invoice-1077.pdf",
    )
    return message.as_bytes()


def test_lists_fit_the_screen_the_search_takes_any_word_and_pages_agree(
    browser: ServedChromium, staff: Any, small: Dataset, client: Any, settings: Any
) -> None:
    """One data set for the lists' widths (Chromium at 1000 and 1400 px) and
    for what the pages say: building it is most of the time."""
    # Every list fits at 1000 px; at 1400 px the sorted and Error columns show;
    # the dashboard cuts no label.
    order_of_a_long_name(staff, settings)
    browser.client = staff
    too_wide: dict[str, Any] = {}
    for width in (1000, 1400):
        browser.width = width
        for path in [*changelists(), "/admin/orders/transformationorder/?q=invoice"]:
            browser.open(path)
            found = browser.evaluate(MEASURE_LIST)
            if found is None:
                continue
            wrong = found["overflow"] > 0 or found["page"] > 0
            if width == 1400:
                wrong |= found["sorted"] is False or found["error"] is False
            if wrong:
                too_wide[f"{width} {path}"] = found
        browser.open("/admin/dashboard/?days=30")
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"dashboard-{width}.png").write_bytes(browser.screenshot())
        dashboard = browser.evaluate(MEASURE_DASHBOARD)
        if dashboard["cut"] or dashboard["page"] > 0:
            too_wide[f"{width} dashboard"] = dashboard
    browser.width = 1400
    assert too_wide == {}, "\n".join(f"{k}: {v}" for k, v in too_wide.items())

    # Any word: no 5xx on any kind's list; a word of an input's title finds
    # exactly the orders that took a document so titled.
    for path in LISTS:
        for word in ("invoice", "zzzz-nothing", "report annual", "%_'"):
            assert staff.get(path, {"q": word, "deleted": "all"}).status_code == 200
    titled = Document.objects.filter(title__icontains="invoice").values("pk")
    took = OrderInput.objects.filter(kind="transformation", document_id__in=titled)
    expected = set(took.values_list("order_id", flat=True))
    assert (
        expected and listed(html(staff, ORDERS, q="Invoice", deleted="all")) == expected
    )
    assert "0 transformation orders" in html(staff, ORDERS, q="zzzz-nothing")

    # A document's page names its orders' states as the lists do.
    contract = html(staff, change(DOCUMENTS, small.documents["Contract Acme – Lyon"]))
    cancelled = row_of(contract, small.cancelled[0])
    assert "CANCELLED" in cancelled and "QUEUED" not in cancelled
    report = html(staff, change(DOCUMENTS, small.documents["Annual report 2026"]))
    deleted = row_of(report, small.deleted[0])
    assert "PROCESSED" in deleted and ">deleted<" in deleted

    # A retried order: the breadcrumb and the badge say the same state.
    lost = TransformationOrder.objects.get(error_category="worker_lost")
    staff.post(change(ORDERS, lost.pk, "retry/"))
    retry = TransformationOrder.objects.get(retry_of=lost)
    page = html(staff, change(ORDERS, retry.pk))
    crumbs = page.split('class="breadcrumbs"', 1)[1].split("</div>", 1)[0]
    head = page.split('class="ts-order-head"', 1)[1].split("</div>", 1)[0]
    states = ("QUEUED", "PROCESSING", "PROCESSED", "FAILED", "CANCELLED")
    assert [s for s in states if s in crumbs] == [retry.state]
    assert [s for s in states if s in head] == [retry.state]

    # A redaction order's page links its input's viewer, which draws the areas
    # the order removes (where the order's request puts them).
    redaction = TransformationOrder.objects.filter(redacts=True).first()
    assert redaction is not None
    area = redaction.request["annotations"]["annotations"][0]
    taken = area["documentId"]["id"]
    link = change(DOCUMENTS, taken, "viewer/") + f"?order={redaction.pk}"
    assert link in html(staff, change(ORDERS, redaction.pk))
    drawn = viewer_config(html(staff, link))["shapes"]
    box = area["coords"][0]
    assert [s["b"][0] for s in drawn if s["l"] == "redactions"] == [
        [round(box[k], 2) for k in "xywh"]
    ]

    # Deleting an input: its page says its failed orders can no longer be
    # retried, and their order page agrees.
    invoice = small.documents["Invoice 1042"]
    warning = html(staff, change(DOCUMENTS, invoice, "delete/"))
    assert "can no longer be retried" in warning
    staff.post(change(DOCUMENTS, invoice, "delete/"), {"post": "yes"})
    page = html(staff, change(ORDERS, lost.pk))
    assert "Retry as a new order" not in page and "was deleted since" in page

    # One name per document: a result without a title is "PDF result" on its
    # page, its breadcrumb and its title, never "untitled".
    made = TransformationOrder.objects.filter(state="PROCESSED", output_count=1)
    result = Document.objects.get(pk=made.first().result_document_id)  # type: ignore[union-attr]
    assert not result.title
    page = html(staff, change(DOCUMENTS, result.pk))
    assert "untitled" not in page.lower()
    assert page.count("PDF result") >= 3  # <title>, breadcrumb, heading

    # Pages count from 1: ?page=3 opens the third page, the layout counts from 1.
    doc = small.documents["Annual report 2026"]
    page = html(staff, change(DOCUMENTS, doc), page=3)
    config = viewer_config(page)
    assert config["start"] == 2 and len(config["pages"]) == 12
    assert 'class="ts-v-pageno" type="number" min="1" max="12" value="3"' in page
    assert "counted from 0" not in page and "<td>1</td><td>595 × 842</td>" in page


def test_documents_list_is_a_library_and_a_document_without_pages_says_why(
    staff: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = ClientApi(client, django_capture_on_commit_callbacks)
    report = dataset.upload(
        api, "Annual report 2026", samples.report("Annual", 3, (0, 0, 1))
    )
    word = dataset.upload(api, "Minutes of March", broken_docx())
    email = dataset.upload(api, "Invoice of March (mail)", mail())
    order, state = dataset.transformation(api, [dataset.element(report, (1, 2))])
    assert state == "PROCESSED"
    result = TransformationOrder.objects.get(pk=order).result_document_id
    parts = list(Document.objects.filter(parent_id=email).order_by("part"))
    assert [p.part for p in parts] == [0, 1]

    # Uploads by default; parts and results on demand; a search looks at all.
    shown = listed(html(staff, DOCUMENTS))
    assert shown == {report, word, email}
    assert listed(html(staff, DOCUMENTS, show="part")) == {p.pk for p in parts}
    assert result in listed(html(staff, DOCUMENTS, show="result"))
    assert result in listed(html(staff, DOCUMENTS, q=result))
    # Formats as people name them; words in any order.
    assert listed(html(staff, DOCUMENTS, format="docx")) == {word}
    assert listed(html(staff, DOCUMENTS, format="eml")) == {email}
    assert listed(html(staff, DOCUMENTS, q="march minutes")) == {word}
    found = listed(html(staff, DOCUMENTS, q="march"))  # the mail's body part too
    assert {word, email} <= found and report not in found

    # A failed conversion shows its error; a container lists its parts, each
    # with its viewer; a document with pages has one.
    page = html(staff, change(DOCUMENTS, word))
    error = Document.objects.get(pk=word).rendition_error
    assert error and error in unescape(page) and "have no picture" not in page
    page = html(staff, change(DOCUMENTS, email))
    for part in parts:
        assert change(DOCUMENTS, part.pk, "viewer/") in page
        assert str(part.title) in unescape(page)
    viewer = html(staff, change(DOCUMENTS, parts[1].pk, "viewer/"))
    assert 'id="ts-viewer-config"' in viewer and "/page/0.png?width=720" in viewer
