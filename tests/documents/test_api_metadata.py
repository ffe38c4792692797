"""GET /documents/<id> in the original's shape, /check, and downloads in the
upload's own format."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pymupdf

from tests.conftest import doc_url
from tests.documents.test_api_documents import png_bytes


def test_metadata_has_the_original_fields_and_ours(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(3)
    doc_id = uploaded(data, documentTitle="Report")
    meta = client.get(doc_url(doc_id)).json()
    assert meta["documentId"] == {"id": doc_id}
    assert meta["documentTitle"] == "Report"
    assert (meta["mimeType"], meta["format"]) == ("application/pdf", "pdf")
    assert (meta["renderedMimeType"], meta["renderedFormat"]) == (
        "application/pdf",
        "pdf",
    )
    assert meta["conversionOrderIds"] == {}
    assert json.loads(base64.b64decode(meta["documentMetadata"])) == {"metadataMap": {}}
    assert meta["urlParameters"] == []
    # Our own fields stay beside them.
    assert meta["id"] == doc_id and meta["title"] == "Report"
    assert meta["size"] == len(data) and meta["pageCount"] == 3
    assert len(meta["sha256"]) == 64 and meta["createdDate"]


def test_an_image_reports_its_format_and_its_pdf_rendition(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(png_bytes())
    meta = client.get(doc_url(doc_id)).json()
    assert (meta["mimeType"], meta["format"]) == ("image/png", "png")
    assert (meta["renderedMimeType"], meta["renderedFormat"]) == (
        "application/pdf",
        "pdf",
    )


def test_a_stored_unsupported_file_is_rendered_as_itself_and_known(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(b"\x01\x02\x03 no engine reads this", failOnUnsupported="false")
    meta = client.get(doc_url(doc_id)).json()
    assert meta["renderedMimeType"] == meta["mimeType"]
    # /check says the service holds it (the original's reading), pages or not.
    check = client.get(doc_url(doc_id, "/check"))
    assert check.status_code == 200 and check.content == b""


def test_check_is_200_with_an_empty_body_for_an_available_document(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    response = client.get(doc_url(doc_id, "/check"))
    assert response.status_code == 200 and response.content == b""
    assert client.get(doc_url(doc_id + "x", "/check")).status_code == 404
    image = uploaded(png_bytes())
    assert client.get(doc_url(image, "/check")).status_code == 200


def test_file_in_the_uploads_own_format_is_the_original(
    client: Any, converted: Callable[..., str]
) -> None:
    data = png_bytes()
    doc_id = converted(data)
    for name in ("png", "PNG"):
        response = client.get(doc_url(doc_id, "/file", format=name))
        assert response.status_code == 200, response.content
        assert response["Content-Type"] == "image/png"
        assert b"".join(response.streaming_content) == data
    rendered = client.get(doc_url(doc_id, "/file", format="rendered"))
    assert rendered["Content-Type"] == "application/pdf"
    assert pymupdf.open("pdf", b"".join(rendered.streaming_content)).page_count == 1
    assert client.get(doc_url(doc_id, "/file", format="jpg")).status_code == 406


def test_jpeg_uploads_download_as_jpg_or_jpeg(
    client: Any, uploaded: Callable[..., str]
) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
    pix.clear_with(90)
    data = pix.tobytes("jpeg")
    doc_id = uploaded(data)
    assert client.get(doc_url(doc_id)).json()["format"] == "jpg"
    for name in ("jpg", "jpeg"):
        response = client.get(doc_url(doc_id, "/file", format=name))
        assert b"".join(response.streaming_content) == data


def test_binary_endpoints_accept_the_accept_headers_clients_send(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    for accept in ("application/pdf", "application/octet-stream", "*/*"):
        response = client.get(doc_url(doc_id, "/file"), HTTP_ACCEPT=accept)
        assert response.status_code == 200, accept
        assert response["Content-Type"] == "application/pdf"
