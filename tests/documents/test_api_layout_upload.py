"""POST /documents/layout in both of the original's readings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import doc_url, make_pdf_bytes


def test_raw_bytes_are_uploaded_and_answered_with_their_layout(
    client: Any,
) -> None:
    response = client.post(
        "/documents/layout?documentTitle=Report",
        data=make_pdf_bytes(2, size=(612, 792), rotate=90),
        content_type="application/octet-stream",
    )
    assert response.status_code == 200, response.content
    layout = response.json()
    assert layout["type"].endswith(".client.api.document.DocumentPageLayout")
    assert layout["documentTitle"] == "Report"
    assert layout["mimeType"] == "application/pdf"
    assert [
        (p["width"], p["height"], p["rotation"]) for p in layout["pageDimensionsList"]
    ] == [
        (792, 612, 90),
        (792, 612, 90),
    ]
    doc_id = layout["documentId"]["id"]
    assert response["Location"] == doc_url(doc_id)
    assert client.get(doc_url(doc_id, "/layout")).json() == layout


def test_a_json_layout_registers_a_document_without_content(client: Any) -> None:
    body = {
        "type": "com.vendor.viewer.client.api.document.DocumentPageLayout",
        "documentId": {"id": "my-doc-id"},
        "documentTitle": "Scanned contract",
        "mimeType": "application/pdf",
        "pageDimensionsList": [
            {"width": 595.3, "height": 841.9, "rotation": 0, "dpi": 72},
            {"width": 842, "height": 595, "rotation": 90, "dpi": 150},
        ],
    }
    response = client.post(
        "/documents/layout", data=body, content_type="application/json"
    )
    assert response.status_code == 200
    layout = client.get(doc_url("my-doc-id", "/layout")).json()
    assert response.json() == layout  # the newer docs' clients expect no body
    assert layout["documentTitle"] == "Scanned contract"
    assert [
        (p["width"], p["height"], p["rotation"], p["dpi"])
        for p in layout["pageDimensionsList"]
    ] == [
        (595, 841, 0, 72),
        (842, 595, 90, 150),
    ]
    assert client.get(doc_url("my-doc-id"))["Content-Type"] == "application/json"
    assert client.get(doc_url("my-doc-id", "/check")).status_code == 200
    text = client.get(doc_url("my-doc-id", "/pages/0/text", searchText="x"))
    assert text.status_code == 415 and "layout" in text.json()["detail"]
    assert client.get(doc_url("my-doc-id", "/file")).status_code == 404
    again = client.post("/documents/layout", data=body, content_type="application/json")
    assert again.status_code == 409


def test_the_newer_docs_pages_field_works_too(client: Any) -> None:
    body = {
        "documentId": "plain-id",
        "pageCount": 1,
        "pages": [{"width": 100, "height": 50}],
    }
    assert (
        client.post(
            "/documents/layout", data=body, content_type="application/json"
        ).status_code
        == 200
    )
    [page] = client.get(doc_url("plain-id", "/layout")).json()["pageDimensionsList"]
    assert (page["width"], page["height"], page["rotation"]) == (100, 50, 0)


def test_a_json_layout_without_document_id_is_400(client: Any) -> None:
    response = client.post(
        "/documents/layout", data={"pages": []}, content_type="application/json"
    )
    assert response.status_code == 400 and "documentId" in response.json()["errors"]


def test_a_document_called_layout_is_still_reachable(
    client: Any, uploaded: Callable[..., str]
) -> None:
    uploaded(make_pdf_bytes(1), documentId="layout")
    assert client.get("/documents/layout").json()["id"] == "layout"
    assert client.get("/documents/layout/layout").status_code == 200
    assert client.delete("/documents/layout").status_code == 200
