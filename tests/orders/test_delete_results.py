"""DELETE an order with `?deleteResults=true`: the documents it made go too (a
client that only deletes orders no longer fills the disk); without it they stay,
as the original keeps them. The source of a conversion always stays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from documents.models import Document
from tests.conftest import doc_url, make_pdf_bytes
from tests.orders.helpers import element, order_body

JSON = "application/json"


def _made(client: Any, url: str, body: dict[str, Any], id_field: str) -> str:
    created = client.post(url, data=body, content_type=JSON)
    assert created.status_code == 200, created.content
    return str(created.json()[id_field]["id"])


@pytest.fixture
def ordered(
    client: Any, uploaded: Callable[..., str], django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """A two-output transformation, a conversion to PNG and to the source's own
    format, and a comparison, all ended; their ids and result ids."""
    left = uploaded(make_pdf_bytes(["alpha", "beta"]))
    right = uploaded(make_pdf_bytes(["alpha", "gamma"]))
    with django_capture_on_commit_callbacks(execute=True):
        two = _made(
            client,
            "/transformations",
            order_body([element(left, (1, 1))], [element(left, (2, 2))]),
            "transformationOrderId",
        )
        png = _made(
            client,
            "/conversions",
            {"documentId": left, "format": "png"},
            "conversionOrderId",
        )
        same = _made(
            client,
            "/conversions",
            {"documentId": left, "format": "pdf"},
            "conversionOrderId",
        )
        compared = _made(
            client,
            "/comparisons",
            {"leftDocumentId": left, "rightDocumentId": right},
            "comparisonOrderId",
        )
    out: dict[str, Any] = {"left": left, "right": right}
    for name, url, key in (
        ("two", f"/transformations/{two}", "transformationResultDocumentID"),
        ("png", f"/conversions/{png}", "conversionResultDocumentID"),
        ("same", f"/conversions/{same}", "conversionResultDocumentID"),
    ):
        order = client.get(url).json()
        assert order["currentState"] == "PROCESSED", order["errorMessage"]
        out[name] = (url, order[key]["id"])
    comparison = client.get(f"/comparisons/{compared}").json()
    assert comparison["currentState"] == "PROCESSED", comparison["errorMessage"]
    target = Document.objects.exclude(pk__in=[left, right]).filter(
        origin=Document.Origin.RESULT, parent__isnull=True, rendition_of__isnull=True
    )
    out["compared"] = (f"/comparisons/{compared}", None)
    out["targets"] = set(target.values_list("pk", flat=True))
    return out


def _exists(client: Any, document_id: str) -> bool:
    return bool(client.get(doc_url(document_id, "/check")).status_code == 200)


def test_results_stay_by_default_and_go_when_asked(
    client: Any, ordered: dict[str, Any]
) -> None:
    url, result = ordered["two"]
    parts = [f"{result}/0", f"{result}/1"]
    assert client.delete(url).status_code == 200
    assert client.get(url).status_code == 404
    assert all(_exists(client, d) for d in [result, *parts]), "kept by default"

    url, png = ordered["png"]
    assert client.delete(url + "?deleteResults=true").status_code == 200
    assert not _exists(client, png)
    url, same = ordered["same"]
    assert client.delete(url + "?deleteResults=true").status_code == 200
    assert same == ordered["left"] and _exists(client, same), "the source stays"
    assert _exists(client, ordered["right"])


def test_delete_all_with_results_removes_what_every_order_made(
    client: Any, ordered: dict[str, Any]
) -> None:
    _, result = ordered["two"]
    assert ordered["targets"] - {result}, "the comparison made a document"
    for route in ("/transformations", "/comparisons", "/conversions"):
        assert client.delete(route + "?deleteResults=true").status_code == 200
    for made in ordered["targets"] | {result, f"{result}/1", ordered["png"][1]}:
        assert not _exists(client, made), made
    assert _exists(client, ordered["left"]) and _exists(client, ordered["right"])


def test_a_bad_delete_results_value_is_a_400_and_deletes_nothing(
    client: Any, ordered: dict[str, Any]
) -> None:
    url, result = ordered["two"]
    refused = client.delete(url + "?deleteResults=maybe")
    assert refused.status_code == 400
    assert "deleteResults" in refused.json()["errors"]
    assert client.get(url).status_code == 200 and _exists(client, result)


def test_deleting_conversions_with_results_keeps_the_pdf_an_upload_is_read_from(
    client: Any,
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    django_capture_on_commit_callbacks: Any,
    tmp_path: Any,
) -> None:
    """A Word upload is read from the PDF its automatic conversion made; a
    client's own conversion of it to PDF answers that same PDF. Deleting every
    conversion with its results must leave the upload readable."""
    from tests.convert.files import make_docx

    docx = make_docx(tmp_path / "kept.docx", ["Kept", "quokka"]).read_bytes()
    doc_id = converted(docx)
    assert pages_with(doc_id, "quokka") == [0]
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(
            "/conversions",
            data={"documentId": doc_id, "format": "pdf"},
            content_type=JSON,
        )
    assert asked.status_code == 200, asked.content
    order_url = f"/conversions/{asked.json()['conversionOrderId']['id']}"
    made = client.get(order_url).json()
    assert made["currentState"] == "PROCESSED", made["errorMessage"]
    pdf_id = made["conversionResultDocumentID"]["id"]

    assert client.delete(order_url + "?deleteResults=true").status_code == 200
    assert client.delete("/conversions?deleteResults=true").status_code == 200

    assert _exists(client, doc_id) and _exists(client, pdf_id)
    assert pages_with(doc_id, "quokka") == [0]
    text = client.get(doc_url(doc_id, "/pages/0/text/position"))
    assert text.status_code == 200 and "quokka" in text.content.decode()
