"""Orders as the original's clients read them: a conversion is never QUEUED
to them and its id ends with `-<format>` (ConversionTest); a comparison order
names its documents as the broker API shows them (ComparisonsTest)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from conversions.models import ConversionOrder
from conversions.services import conversion_run
from tests.conftest import doc_url, make_pdf_bytes
from tests.convert.files import make_docx

JSON = "application/json"


def _convert(client: Any, document_id: str, fmt: str) -> str:
    # Conversions.convertDocumentToTargetFormat: the body of conversionsBody.json.
    response = client.post(
        "/conversions",
        data=json.dumps({"documentId": document_id, "format": fmt}),
        content_type=JSON,
    )
    assert response.status_code == 200, response.content
    return str(response.json()["conversionOrderId"]["id"])


def test_a_conversion_reads_processing_until_it_ends_and_its_id_names_its_format(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    docx = make_docx(tmp_path / "test.docx", ["Title", "Converted to text."])
    doc_id = converted(docx.read_bytes())
    to_text, to_odt = _convert(client, doc_id, "txt"), _convert(client, doc_id, "odt")
    assert to_text.endswith("-txt") and to_odt.endswith("-odt")
    # No worker has taken them yet: PROCESSING to every reader, the list too.
    for order_id in (to_text, to_odt):
        assert ConversionOrder.objects.get(pk=order_id).state == "QUEUED"
        order = client.get(f"/conversions/{order_id}", CONTENT_TYPE=JSON).json()
        assert (order["currentState"], order["queued"]) == ("PROCESSING", True)
    listed = {
        o["conversionOrderId"]["id"]: o for o in client.get("/conversions").json()
    }
    assert listed[to_text]["currentState"] == "PROCESSING"
    # Our own clients can still ask for the queued ones.
    waiting = client.get("/conversions?state=QUEUED").json()
    assert {o["conversionOrderId"]["id"] for o in waiting} == {to_text, to_odt}
    for order_id in (to_text, to_odt):
        conversion_run(order_id=order_id)
    done = client.get(f"/conversions/{to_text}").json()
    assert (done["currentState"], done["queued"]) == ("PROCESSED", False)
    assert client.get(f"/conversions/{to_odt}").json()["currentState"] == "PROCESSED"
    text = client.get(doc_url(doc_id, "/file", format="txt"))
    assert b"Converted to text." in b"".join(text.streaming_content)


def test_comparison_orders_name_their_documents_as_strings_or_as_id_objects(
    client: Any,
    uploaded: Callable[..., str],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    left = uploaded(make_pdf_bytes(["the quick brown fox"]))
    right = uploaded(make_pdf_bytes(["the quick brown cat"]))
    # Both forms of an id are accepted on input.
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            "/comparisons",
            data=json.dumps(
                {
                    "leftDocumentId": {"id": left},
                    "rightDocumentId": right,
                    "fuzz": 3,
                    "highlightColor": "ff0000",
                    "lowlightColor": "null",
                }
            ),
            content_type=JSON,
        )
    order_id = created.json()["comparisonOrderId"]["id"]
    url = f"/comparisons/{order_id}?timeoutMs=60000"
    order = client.get(url).json()
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    # interface.md: strings.
    assert (order["leftDocumentId"], order["rightDocumentId"]) == (left, right)
    target = order["targetDocumentId"]
    assert isinstance(target, str)
    # The original's broker API, switched on: {id} objects, targetDocumentId.id.
    settings.SERVICE = replace(settings.SERVICE, comparison_id_objects=True)
    order = client.get(url).json()
    assert order["leftDocumentId"] == {"id": left}
    assert order["rightDocumentId"] == {"id": right}
    assert order["targetDocumentId"] == {"id": target}
    pdf = client.get(doc_url(order["targetDocumentId"]["id"], "/file"))
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
