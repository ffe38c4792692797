"""The documents API over HTTP: upload, metadata, layout, download, delete."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pymupdf
import pytest

from documents.models import Document
from tests.conftest import doc_url

PROBLEM = "application/problem+json"


def assert_problem(response: Any, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    for word in words:
        assert word in body["detail"] or word in str(body.get("errors")), body
    return body


def test_upload_returns_a_generated_b64_id_and_location(
    upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    response = upload(make_pdf(2))
    assert response.status_code == 200
    new_id = response.json()["id"]
    assert new_id.startswith("b64_")
    assert response["Location"] == doc_url(new_id)


def test_uploaded_bytes_download_byte_identical(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(3)
    doc_id = uploaded(data, documentTitle="Quarterly report")
    response = client.get(doc_url(doc_id, "/file"))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == data
    assert response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    assert "Quarterly report.pdf" in response["Content-Disposition"]
    for fmt in ("pdf", "PDF"):
        again = client.get(doc_url(doc_id, "/file", format=fmt))
        assert b"".join(again.streaming_content) == data


def test_download_in_an_unknown_format_is_406(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    assert_problem(client.get(doc_url(doc_id, "/file", format="docx")), 406, "docx")
    assert_problem(client.get(doc_url(doc_id, "/file", format="zip")), 406, "zip")


def test_range_requests_return_the_asked_bytes(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(2)
    doc_id = uploaded(data)
    url = doc_url(doc_id, "/file")
    part = client.get(url, HTTP_RANGE="bytes=10-19")
    assert part.status_code == 206
    assert b"".join(part.streaming_content) == data[10:20]
    assert part["Content-Range"] == f"bytes 10-19/{len(data)}"
    tail = client.get(url, HTTP_RANGE="bytes=-7")
    assert b"".join(tail.streaming_content) == data[-7:]
    open_end = client.get(url, HTTP_RANGE=f"bytes={len(data) - 5}-")
    assert b"".join(open_end.streaming_content) == data[-5:]
    outside = client.get(url, HTTP_RANGE=f"bytes={len(data) + 10}-")
    assert_problem(outside, 416)
    assert outside["Content-Range"] == f"bytes */{len(data)}"


def test_metadata_lists_size_hash_and_pages(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    data = make_pdf(4)
    doc_id = uploaded(data, documentTitle="four")
    body = client.get(doc_url(doc_id)).json()
    assert body["id"] == doc_id and body["title"] == "four"
    assert body["mimeType"] == "application/pdf"
    assert body["size"] == len(data)
    assert body["sha256"] == hashlib.sha256(data).hexdigest()
    assert body["pageCount"] == 4
    assert body["createdDate"].endswith("+00:00")


def test_layout_gives_displayed_sizes_and_rotation(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(
        make_pdf(1, size=(595.28, 841.89), rotate=90), documentTitle="A4 turned"
    )
    body = client.get(doc_url(doc_id, "/layout")).json()
    assert body == {
        "type": "com.vendor.viewer.client.api.document.DocumentPageLayout",
        "documentId": {"id": doc_id},
        "documentTitle": "A4 turned",
        "mimeType": "application/pdf",
        "pageDimensionsList": [
            {"width": 841, "height": 595, "rotation": 90, "dpi": 72, "pageLayers": None}
        ],
    }


@pytest.mark.parametrize(
    "doc_id", ["b64_ab/c+d==", "user@example.com:42", "x%2Fy", "a/b/c"]
)
def test_ids_with_reserved_characters_work_raw_and_encoded(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    doc_id: str,
) -> None:
    assert uploaded(make_pdf(1), documentId=doc_id) == doc_id
    encoded = client.get(doc_url(doc_id, "/layout"))
    assert encoded.status_code == 200 and encoded.json()["documentId"] == {"id": doc_id}
    if (
        "%" not in doc_id
    ):  # a raw `%2F` would be read as an encoded slash, as in any URL
        raw = client.get(f"/documents/{doc_id}/layout")
        assert raw.status_code == 200 and raw.json()["documentId"] == {"id": doc_id}
        assert client.get(f"/documents/{doc_id}").json()["id"] == doc_id
        assert client.get(f"/documents/{doc_id}/file").status_code == 200


def test_duplicate_id_is_409(
    upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    assert upload(make_pdf(1), documentId="dup-1").status_code == 200
    assert_problem(upload(make_pdf(1), documentId="dup-1"), 409, "dup-1")


def test_invalid_client_id_is_400(
    upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    assert_problem(upload(make_pdf(1), documentId="has space"), 400, "documentId")


def test_unknown_document_is_404_problem(client: Any) -> None:
    for suffix in ("", "/layout", "/file"):
        assert_problem(client.get(doc_url("nope", suffix)), 404, "nope")


def test_unknown_path_is_404_problem(client: Any) -> None:
    assert_problem(client.get("/no/such/path"), 404)


def test_empty_body_without_url_is_400(upload: Callable[..., Any]) -> None:
    assert_problem(upload(b""), 400, "empty")


def test_not_a_pdf_is_415_unless_told_to_keep_it(
    client: Any, upload: Callable[..., Any]
) -> None:
    noise = bytes(range(256)) * 8  # no format the service reads
    assert_problem(upload(noise), 415, "PDF")
    kept = upload(noise, failOnUnsupported="false")
    assert kept.status_code == 200
    doc_id = kept.json()["id"]
    assert client.get(doc_url(doc_id)).json()["mimeType"] == "application/octet-stream"
    assert_problem(client.get(doc_url(doc_id, "/file", format="pdf")), 406)


def test_truncated_pdf_is_415(upload: Callable[..., Any]) -> None:
    assert_problem(upload(b"%PDF-1.7\n1 0 obj\n<<"), 415)


def test_bad_boolean_is_400(
    upload: Callable[..., Any], make_pdf: Callable[..., bytes]
) -> None:
    assert_problem(
        upload(make_pdf(1), failOnUnsupported="maybe"), 400, "failOnUnsupported"
    )


def test_delete_removes_the_document_and_its_file_then_answers_404(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    doc_id = uploaded(make_pdf(1))
    path = Document.objects.get(pk=doc_id).file.path
    with django_capture_on_commit_callbacks(execute=True):  # files go at commit
        assert client.delete(doc_url(doc_id)).status_code == 200
    assert client.get(doc_url(doc_id)).status_code == 404
    import os

    assert not os.path.exists(path)
    again = client.delete(doc_url(doc_id))
    assert again.status_code == 404  # decisions §3, as the original
    assert again["Content-Type"] == "application/problem+json"


def test_every_response_carries_a_request_id(client: Any) -> None:
    response = client.get("/health")
    assert len(response["X-Request-ID"]) >= 16
    assert (
        client.get("/health", HTTP_X_REQUEST_ID="abc-123")["X-Request-ID"] == "abc-123"
    )


def test_a_trailing_slash_is_accepted(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    assert client.get(doc_url(doc_id, "/layout/")).json()["documentId"] == {
        "id": doc_id
    }
    response = client.post(
        "/documents/", data=make_pdf(1), content_type="application/octet-stream"
    )
    assert response.status_code == 200


def png_bytes(width: int = 120, height: int = 80) -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, width, height), False)
    pix.clear_with(200)
    pix.set_dpi(72, 72)  # one pixel per point on the rendition's page
    return pix.tobytes("png")


def test_an_image_upload_keeps_the_original_and_gets_a_pdf_rendition(
    client: Any, converted: Callable[..., str], django_capture_on_commit_callbacks: Any
) -> None:
    data = png_bytes()
    doc_id = converted(data, documentTitle="scan")
    meta = client.get(doc_url(doc_id)).json()
    assert meta["mimeType"] == "image/png" and meta["pageCount"] == 1
    layout = client.get(doc_url(doc_id, "/layout")).json()["pageDimensionsList"]
    assert [(p["width"], p["height"]) for p in layout] == [(120, 80)]
    assert b"".join(client.get(doc_url(doc_id, "/file")).streaming_content) == data
    pdf = client.get(doc_url(doc_id, "/file", format="pdf"))
    assert pdf["Content-Type"] == "application/pdf"
    rendition = pymupdf.open("pdf", b"".join(pdf.streaming_content))
    assert rendition.page_count == 1 and rendition[0].get_images()
    image = client.get(doc_url(doc_id, "/pages/0/image", width=60))
    assert image.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        order = client.post(
            "/transformations",
            data={
                "format": "pdf",
                "transformationDetails": [
                    {"transformationElements": [{"documentId": doc_id}]}
                ],
            },
            content_type="application/json",
        )
    body = client.get(f"/transformations/{order.json()['transformationOrderId']['id']}")
    assert body.json()["currentState"] == "PROCESSED", body.json()["errorMessage"]
    renditions = list(Document.objects.get(pk=doc_id).renditions.all())
    with django_capture_on_commit_callbacks(execute=True):  # files go at commit
        assert client.delete(doc_url(doc_id)).status_code == 200
    import os

    assert not any(os.path.exists(r.file.path) for r in renditions)


def test_an_unreadable_image_is_415(upload: Callable[..., Any]) -> None:
    response = upload(b"\x89PNG\r\n\x1a\n" + b"broken" * 10)
    assert response.status_code == 415
    assert "image" in response.json()["detail"]


def test_a_client_id_holding_an_at_sign_is_found_as_written(
    uploaded: Callable[..., str], client: Any, make_pdf: Callable[..., bytes]
) -> None:
    plain = uploaded(make_pdf(1), documentId="report@2")
    part_like = uploaded(make_pdf(2), documentId="report/2")
    assert client.get(doc_url(plain, "/layout")).json()["documentId"] == {
        "id": "report@2"
    }
    assert client.get(doc_url(part_like)).json()["id"] == "report/2"
    assert client.get(doc_url("report@3")).status_code == 404
