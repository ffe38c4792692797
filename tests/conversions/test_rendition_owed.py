"""A document that needs a worker and the conversion order it is owed are stored
as one: a process killed between the two leaves neither, and a document owed a
rendition that nobody makes is failed with a message its readers get."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from conversions.models import ConversionOrder
from documents.models import Document
from documents.renditions.recovery import LOST_CONVERSION, LOST_RECOGNITION
from jobs.recovery import reap_stale_orders
from tests.live import database_url

ROOT = Path(__file__).resolve().parents[2]

# Uploads a text file (a worker must convert it) in a process that dies, as a
# SIGKILL would, right after its conversion order is inserted and before the
# transaction commits.
KILLED_UPLOAD = textwrap.dedent(
    """
    import io, os, django
    django.setup()
    from conversions import maker
    from documents.services import document_create

    queue = maker.conversion_queue

    def queue_then_die(*args, **kwargs):
        queue(*args, **kwargs)
        os._exit(9)

    maker.conversion_queue = queue_then_die
    document_create(stream=io.BytesIO(b"a plain text\\n" * 50),
                    document_id="killed-upload", title="t")
    """
)


@pytest.mark.django_db(transaction=True)
def test_a_process_killed_before_the_commit_leaves_no_document_pending() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
        "DATABASE_URL": database_url(),
        "TRANSFORMSVC_DATA_DIR": str(settings.DATA_DIR),
        "TRANSFORMSVC_Q_SYNC": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", KILLED_UPLOAD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 9, done.stderr.decode()[-2000:]
    # Neither the document nor its order: nothing waits for ever.
    assert not Document.objects.filter(pk="killed-upload").exists()
    assert not ConversionOrder.history.filter(document_id="killed-upload").exists()


@pytest.mark.django_db
def test_the_document_and_its_conversion_order_commit_together(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            "/documents?documentId=together",
            data=io.BytesIO(b"plain words\n" * 20).read(),
            content_type="application/octet-stream",
        )
    assert response.status_code == 200, response.content
    doc = Document.objects.get(pk="together")
    order = ConversionOrder.objects.get(document_id="together")
    assert doc.rendition_state == Document.Rendition.PENDING
    assert order.state == "QUEUED" and order.automatic and order.format == "pdf"
    assert order.id.endswith("-pdf")


def _owed(doc_id: str, **fields: Any) -> Document:
    """A document left owed a rendition long ago, with no order making it."""
    values: dict[str, Any] = {
        "mime_type": "text/plain",
        "size": 1,
        "sha256": "0" * 64,
        "file": "none",
        "created_at": timezone.now() - timedelta(minutes=5),
        **fields,
    }
    return Document.objects.create(id=doc_id, **values)


@pytest.mark.django_db
def test_a_document_owed_a_conversion_nobody_makes_fails_with_a_message(
    client: Any,
) -> None:
    _owed("orphan", rendition_state=Document.Rendition.PENDING)
    _owed(
        "being-made",
        rendition_state=Document.Rendition.PENDING,
    )
    ConversionOrder.objects.create(
        id="order-pdf", document_id="being-made", format="pdf", automatic=True
    )

    assert reap_stale_orders() >= 1

    orphan = Document.objects.get(pk="orphan")
    assert orphan.rendition_state == Document.Rendition.FAILED
    assert (
        LOST_CONVERSION
        in client.get("/documents/orphan/layout").json()["renditionError"]
    )
    answer = client.get("/documents/orphan/pages/0/text/position")
    assert answer.status_code == 422
    assert LOST_CONVERSION in answer.json()["detail"]
    # One whose order is still queued keeps waiting for it.
    made = Document.objects.get(pk="being-made")
    assert made.rendition_state == Document.Rendition.PENDING


@pytest.mark.django_db
def test_text_owed_by_a_lost_recognition_is_final_and_says_why() -> None:
    _owed(
        "unread-scan",
        mime_type="application/pdf",
        page_count=1,
        text_state=Document.Text.PENDING,
    )
    reap_stale_orders()
    doc = Document.objects.get(pk="unread-scan")
    assert doc.text_state == Document.Text.READY
    assert doc.text_error == LOST_RECOGNITION


@pytest.mark.django_db
def test_a_recent_document_is_given_time_before_it_counts_as_lost() -> None:
    Document.objects.create(
        id="just-now",
        mime_type="text/plain",
        size=1,
        sha256="0" * 64,
        file="none",
        rendition_state=Document.Rendition.PENDING,
    )
    reap_stale_orders()
    assert (
        Document.objects.get(pk="just-now").rendition_state
        == Document.Rendition.PENDING
    )
