"""Screenshots of every admin page in headless Chromium, on a realistic data set
made through the real API of a live service (token mode, three owners), written
to var/screenshots/ for people to look at. The test checks each page rendered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import requests
from django.test import Client

from accounts.keys import apikey_create
from comparisons.models import ComparisonOrder
from documents.models import Document
from orders.models import TransformationOrder
from tests.admin import dataset
from tests.admin.chromium import Chromium
from tests.live import ROOT, live_service

OUT = ROOT / "var" / "screenshots"
TOKEN_SYNC = {"TRANSFORMSVC_AUTH": "token", "TRANSFORMSVC_Q_SYNC": "1"}


class LiveApi:
    """`dataset.Api` over HTTP, with one key per owner."""

    def __init__(self, base: str, keys: dict[str, str]) -> None:
        self.base, self.keys = base, keys
        self.owner: str | None = "alice"
        self.http = requests.Session()

    def request(
        self, method: str, path: str, *, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {self.keys[self.owner or 'alice']}"}
        if raw is not None:
            headers["Content-Type"] = "application/octet-stream"
        response = self.http.request(
            method, self.base + path, json=body, data=raw, headers=headers, timeout=120
        )
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, None


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


def admin_url(model: Any, pk: str, suffix: str = "change/") -> str:
    opts = model._meta
    return f"/admin/{opts.app_label}/{opts.model_name}/{quote(pk, safe='')}/{suffix}"


def pages(data: dataset.Dataset) -> dict[str, str]:
    d = data.documents
    report = d["Annual report 2026"]
    merge = TransformationOrder.objects.filter(merges=True, state="PROCESSED").first()
    zipped = TransformationOrder.objects.filter(
        output_count__gt=1, state="PROCESSED"
    ).first()
    redacted = TransformationOrder.objects.filter(
        redacts=True, state="PROCESSED"
    ).first()
    failed = TransformationOrder.objects.filter(state="FAILED").first()
    compared = ComparisonOrder.objects.filter(state="PROCESSED").first()
    broken = ComparisonOrder.objects.filter(state="FAILED").first()
    assert merge and zipped and redacted and failed and compared and broken
    return {
        "01-index": "/admin/",
        "02-dashboard": "/admin/dashboard/?days=30",
        "03-documents": "/admin/documents/document/",
        "04-document-report": admin_url(Document, report),
        "05-document-tiff": admin_url(Document, d.get("Fax pages", d["Chart scan"])),
        "06-document-corpus": admin_url(Document, d.get("TraceMonkey paper", report)),
        "07-transformations": "/admin/orders/transformationorder/",
        "08-transformations-of-a-document": "/admin/orders/transformationorder/"
        f"?input={quote(report, safe='')}&deleted=all",
        "09-transformations-failed": "/admin/orders/transformationorder/?state__exact=FAILED",
        "10-transformation-merge": admin_url(TransformationOrder, merge.pk),
        "11-transformation-several-outputs": admin_url(TransformationOrder, zipped.pk),
        "12-transformation-redaction": admin_url(TransformationOrder, redacted.pk),
        "13-transformation-failed": admin_url(TransformationOrder, failed.pk),
        "14-comparisons": "/admin/comparisons/comparisonorder/",
        "15-comparison": admin_url(ComparisonOrder, compared.pk),
        "16-comparison-failed": admin_url(ComparisonOrder, broken.pk),
        "17-delete-document": admin_url(Document, report, "delete/"),
        "18-delete-order": admin_url(TransformationOrder, merge.pk, "delete/"),
        "19-deleted-orders": "/admin/orders/transformationorder/?deleted=yes",
        "20-viewer-search": admin_url(Document, report, "viewer/?page=2&q=figure"),
        "21-viewer-redaction": admin_url(
            Document,
            redacted.request["annotations"]["annotations"][0]["documentId"]["id"],
            f"viewer/?order={redacted.pk}",
        ),
    }


@pytest.mark.django_db(transaction=True)
def test_admin_pages_in_chromium(tmp_path: Path, django_user_model: Any) -> None:
    keys = {name: apikey_create(owner_name=name)[1] for name in dataset.OWNERS}
    data = dataset.Dataset()
    with live_service(
        tmp_path / "sync", start_worker=False, extra_env=TOKEN_SYNC
    ) as live:
        collect_static(live.env)
        api = LiveApi(live.base, keys)
        dataset.add_documents(api, data)
        dataset.add_orders(api, data)
        dataset.add_comparisons(api, data)
        dataset.add_failures(api, data, dataset.damage)
        dataset.add_endings(api, data)
    dataset.spread_over_days()
    # No worker now: new orders wait, one is cancelled, a failed one is retried.
    with live_service(
        tmp_path / "queue", start_worker=False, extra_env={"TRANSFORMSVC_AUTH": "token"}
    ) as live:
        dataset.add_queued(LiveApi(live.base, keys), data)
        staff = Client()
        staff.force_login(django_user_model.objects.create_superuser("admin", "", "pw"))
        failed = TransformationOrder.objects.filter(state="FAILED").first()
        assert failed is not None
        retried = staff.post(admin_url(TransformationOrder, failed.pk, "retry/"))
        assert retried.status_code == 302
        browser = Chromium()
        try:
            browser.set_cookie("sessionid", staff.cookies["sessionid"].value, live.base)
            for name, path in pages(data).items():
                assert (
                    requests.get(
                        live.base + path,
                        cookies={"sessionid": staff.cookies["sessionid"].value},
                        timeout=60,
                    ).status_code
                    == 200
                ), path
                browser.shoot(live.base + path, OUT / f"{name}.png")
        finally:
            browser.close()
    shots = sorted(OUT.glob("*.png"))
    assert len(shots) >= 21
    assert all(p.stat().st_size > 20_000 for p in shots), [p.name for p in shots]
