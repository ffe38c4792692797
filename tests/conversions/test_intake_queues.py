"""Heavy intake and recognition run on the workers, each on its queue: a TIFF
upload answers before its frames are decoded (the main queue makes its PDF),
and its recognition is handed to the OCR queue once its pages are readable.

The tasks go to django-q2's real database broker (not run at commit, as the
rest of the suite does), and are run as a worker runs them."""

from __future__ import annotations

import io
from typing import Any

import pymupdf
import pytest
from django.utils import timezone
from django_q.models import OrmQ
from PIL import Image

from conversions.models import ConversionOrder
from conversions.tasks import run_conversion
from documents.models import Document
from jobs import queues
from jobs.models import WorkerHeartbeat
from tests.conftest import doc_url


def scanned_tiff(words: list[str], dpi: int = 200) -> bytes:
    """A TIFF of one frame per word: a half-letter page with it in large type."""
    frames = []
    for word in words:
        doc = pymupdf.open()
        page = doc.new_page(width=612, height=396)
        page.insert_text((72, 200), f"Invoice {word}", fontsize=28)
        pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        frames.append(
            Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
        )
    out = io.BytesIO()
    frames[0].save(out, "TIFF", save_all=True, append_images=frames[1:], dpi=(dpi, dpi))
    return out.getvalue()


@pytest.fixture
def real_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def queued(queue: str) -> int:
    return OrmQ.objects.filter(key=queues.cluster_of(queue)).count()


def test_a_tiff_is_made_a_pdf_on_the_main_queue_then_recognised_on_the_ocr_queue(
    client: Any, real_broker: None, django_capture_on_commit_callbacks: Any
) -> None:
    for name in ("node:1", "node:2/ocr"):
        WorkerHeartbeat.objects.create(name=name, seen_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/documents",
            data=scanned_tiff(["Quillfeather", "Marrowbone"]),
            content_type="application/octet-stream",
        )
    assert response.status_code == 200, response.content
    doc_id = response.json()["id"]
    doc = Document.objects.get(pk=doc_id)
    assert doc.rendition_state == Document.Rendition.PENDING  # no PDF made yet
    assert (queued("main"), queued("ocr")) == (1, 0)

    [making] = ConversionOrder.objects.filter(document_id=doc_id)
    with django_capture_on_commit_callbacks(execute=True):
        run_conversion(making.pk)  # what the main queue's worker does
    doc.refresh_from_db()
    assert doc.rendition_state == Document.Rendition.READY and doc.page_count == 2
    assert doc.text_state == Document.Text.PENDING
    layout = client.get(doc_url(doc_id, "/layout")).json()["pageDimensionsList"]
    assert [page["dpi"] for page in layout] == [200, 200]
    assert queued("ocr") == 1  # its recognition waits for the OCR queue

    recognising = ConversionOrder.objects.exclude(pk=making.pk).get(document_id=doc_id)
    with django_capture_on_commit_callbacks(execute=True):
        run_conversion(recognising.pk)  # what the OCR queue's worker does
    doc.refresh_from_db()
    assert doc.text_state == Document.Text.READY and doc.text_error is None
    hits = client.get(doc_url(doc_id, "/pages/1/text", searchText="Marrowbone"))
    assert len(hits.json()["searchResults"]) == 1, hits.json()
    making.refresh_from_db()
    recognising.refresh_from_db()
    assert (making.state, recognising.state) == ("PROCESSED", "PROCESSED")


def test_without_ocr_workers_the_main_queue_recognises_the_tiff_itself(
    converted: Any, client: Any
) -> None:
    doc_id = converted(scanned_tiff(["Thistledown"]))
    doc = Document.objects.get(pk=doc_id)
    assert doc.text_state == Document.Text.READY
    assert ConversionOrder.objects.filter(document_id=doc_id).count() == 1
    hits = client.get(doc_url(doc_id, "/pages/0/text", searchText="Thistledown"))
    assert len(hits.json()["searchResults"]) == 1, hits.json()
