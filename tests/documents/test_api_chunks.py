"""GET /documents/<id>/file/chunk: byte ranges as the original reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import doc_url, make_pdf_bytes
from tests.documents.test_api_documents import png_bytes


@pytest.fixture
def data() -> bytes:
    return make_pdf_bytes(3)


def chunk(client: Any, doc_id: str, header: str | None, **query: Any) -> Any:
    extra = {} if header is None else {"HTTP_RANGE": header}
    return client.get(doc_url(doc_id, "/file/chunk", **query), **extra)


def body(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def test_a_chunk_is_the_asked_bytes_with_content_range(
    client: Any, uploaded: Callable[..., str], data: bytes
) -> None:
    doc_id = uploaded(data)
    response = chunk(client, doc_id, "bytes=0-1023")
    assert response.status_code == 206
    assert body(response) == data[:1024]
    assert response["Content-Range"] == f"bytes 0-1023/{len(data)}"
    assert response["Content-Length"] == "1024"
    assert response["Content-Type"] == "application/pdf"
    middle = chunk(client, doc_id, "bytes=10-10")
    assert body(middle) == data[10:11]
    tail = chunk(client, doc_id, f"bytes=100-{len(data) + 5000}")
    assert body(tail) == data[100:]
    assert tail["Content-Range"] == f"bytes 100-{len(data) - 1}/{len(data)}"
    rest = chunk(client, doc_id, "bytes=200-")
    assert body(rest) == data[200:]


def test_chunks_of_the_pdf_rendition_of_an_image(
    client: Any, converted: Callable[..., str]
) -> None:
    image = png_bytes()
    doc_id = converted(image)  # its words recognised: its PDF is final
    pdf = body(client.get(doc_url(doc_id, "/file", format="pdf")))
    response = chunk(client, doc_id, "bytes=0-7", format="pdf")
    assert response.status_code == 206 and body(response) == pdf[:8] == b"%PDF-1.7"
    assert response["Content-Range"].endswith(f"/{len(pdf)}")
    original = chunk(client, doc_id, "bytes=0-7")
    assert body(original) == image[:8] and original["Content-Type"] == "image/png"


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "bytes=abc",
        "bytes=-5",
        "bytes=-5-10",
        "bytes=10-5",
        "bytes=0-1,5-9",
        "items=0-5",
        "bytes=5",
    ],
)
def test_a_missing_malformed_negative_or_descending_range_is_400(
    client: Any, uploaded: Callable[..., str], data: bytes, header: str | None
) -> None:
    response = chunk(client, uploaded(data), header)
    assert response.status_code == 400, header
    assert response["Content-Type"] == "application/problem+json"
    assert "Range" in response.json()["errors"]


def test_a_range_past_the_end_is_416(
    client: Any, uploaded: Callable[..., str], data: bytes
) -> None:
    response = chunk(client, uploaded(data), f"bytes={len(data)}-{len(data) + 10}")
    assert response.status_code == 416
    assert response["Content-Type"] == "application/problem+json"
    assert response["Content-Range"] == f"bytes */{len(data)}"


def test_chunk_of_an_unknown_document_or_format(
    client: Any, uploaded: Callable[..., str], data: bytes
) -> None:
    assert chunk(client, "missing", "bytes=0-1").status_code == 404
    assert chunk(client, uploaded(data), "bytes=0-1", format="docx").status_code == 406
