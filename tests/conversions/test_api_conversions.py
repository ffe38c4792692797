"""Conversion orders, the original's /conversions, on documents that are already
readable (PDFs): pages as images, text; impossible conversions fail clearly."""

from __future__ import annotations

import io
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pymupdf
import pytest
from django.db import connection

from conversions.models import ConversionOrder
from conversions.services import conversion_run
from documents.models import Document
from documents.services import document_delete
from tests.conftest import doc_url


@pytest.fixture
def convert(
    client: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., dict[str, Any]]:
    """POST /conversions, let the sync worker run it, return the order as GET shows."""

    def _convert(document_id: Any, fmt: str) -> dict[str, Any]:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/conversions",
                data={"documentId": document_id, "format": fmt},
                content_type="application/json",
            )
        assert response.status_code == 200, response.content
        order_id = response.json()["conversionOrderId"]["id"]
        assert response["Location"] == f"/conversions/{order_id}"
        return client.get(f"/conversions/{order_id}?timeoutMs=5000").json()

    return _convert


def _file(client: Any, document_id: str, fmt: str = "") -> bytes:
    response = client.get(
        doc_url(document_id, "/file", **({"format": fmt} if fmt else {}))
    )
    assert response.status_code == 200, response.content
    return b"".join(response.streaming_content)


def test_a_pdf_converts_to_text_found_with_its_words(
    convert: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    client: Any,
) -> None:
    doc_id = uploaded(make_pdf(["first page words", "second page words"]))
    order = convert({"id": doc_id}, "TXT")
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    assert order["documentId"] == {"id": doc_id}
    assert order["format"] == "txt"
    text = _file(client, doc_id, "txt").decode()
    assert text.split("\f")[0].strip() == "first page words"
    assert "second page words" in text.split("\f")[1]
    # The same conversion again reuses the rendition.
    again = convert(doc_id, "txt")
    assert again["conversionResultDocumentID"] == order["conversionResultDocumentID"]


def test_pages_convert_to_images_one_per_page(
    convert: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    client: Any,
    tmp_path: Path,
) -> None:
    one = uploaded(make_pdf(["only page"]))
    three = uploaded(make_pdf(3))
    assert convert(one, "png")["currentState"] == "PROCESSED"
    png = _file(client, one, "png")
    assert png.startswith(b"\x89PNG")
    assert pymupdf.Pixmap(png).width == pytest.approx(595 * 150 / 72, abs=2)
    assert convert(three, "jpg")["currentState"] == "PROCESSED"
    with zipfile.ZipFile(io.BytesIO(_file(client, three, "jpg"))) as archive:
        names = archive.namelist()
        assert names == ["page-0001.jpg", "page-0002.jpg", "page-0003.jpg"]
        (tmp_path / "p2.jpg").write_bytes(archive.read(names[1]))
    # The second image shows the second page: recognised by Tesseract.
    seen = subprocess.run(
        ["tesseract", str(tmp_path / "p2.jpg"), "-", "--psm", "6"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "page 2" in seen


@pytest.mark.parametrize("fmt", ["mp4", "docx", "xlsx"])
def test_a_conversion_the_document_cannot_give_is_refused_with_its_choices(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    fmt: str,
) -> None:
    doc_id = uploaded(make_pdf(1))
    refused = client.post(
        "/conversions",
        data={"documentId": doc_id, "format": fmt},
        content_type="application/json",
    )
    assert refused.status_code == 400
    problem = refused.json()
    assert problem["code"] == "conversion_impossible"
    assert problem["errors"]["format"] == [
        f"document {doc_id!r} (pdf) cannot be converted to {fmt}; "
        "it converts to: pdf, txt, png, jpg"
    ]
    assert not ConversionOrder.objects.filter(document_id=doc_id).exists()


def test_a_container_is_refused_page_formats_and_told_to_convert_its_parts(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("a.pdf", make_pdf(1))
    doc_id = uploaded(archive.getvalue())
    refused = client.post(
        "/conversions",
        data={"documentId": doc_id, "format": "pdf"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert (
        "(a container: convert its parts); it converts to: zip"
        in (refused.json()["errors"]["format"][0])
    )


def test_bad_conversion_requests_are_refused_before_queueing(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc_id = uploaded(make_pdf(1))
    unknown_format = client.post(
        "/conversions",
        data={"documentId": doc_id, "format": "nosuchformat"},
        content_type="application/json",
    )
    assert unknown_format.status_code == 400
    assert unknown_format.json()["errors"]["format"] == [
        "unknown format 'nosuchformat'; one of: pdf, txt, png, jpg, docx, odt, doc, "
        "rtf, html, xlsx, ods, xls, csv, pptx, odp, ppt (what a document converts "
        "to depends on its own format)"
    ]
    unknown_doc = client.post(
        "/conversions",
        data={"documentId": "missing", "format": "pdf"},
        content_type="application/json",
    )
    assert unknown_doc.status_code == 404
    assert unknown_doc["Content-Type"] == "application/problem+json"


def test_conversions_are_listed_per_document_and_deleted(
    convert: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    client: Any,
) -> None:
    doc_id = uploaded(make_pdf(2))
    first = convert(doc_id, "txt")["conversionOrderId"]["id"]
    second = convert(doc_id, "png")["conversionOrderId"]["id"]
    listed = client.get(doc_url(doc_id, "/conversions")).json()
    assert sorted(o["id"] for o in listed) == sorted([first, second])
    everything = client.get("/conversions?pageSize=1")
    assert len(everything.json()) == 1
    assert everything["X-Total-Count"] == "2"
    assert 'rel="next"' in everything["Link"]
    assert client.delete(f"/conversions/{first}").json() == {
        "conversionOrderId": {"id": first}
    }
    assert client.get(f"/conversions/{first}").status_code == 404
    assert client.delete("/conversions").status_code == 200
    assert client.get("/conversions").json() == []
    # The document and its renditions stay: they belong to the document.
    assert Document.objects.filter(rendition_of_id=doc_id).count() == 2


def test_deleting_the_conversion_a_document_waits_for_fails_its_rendition(
    client: Any, uploaded: Callable[..., str]
) -> None:
    import tempfile

    from tests.convert.files import make_docx

    with tempfile.TemporaryDirectory() as tmp:
        doc_id = uploaded(make_docx(Path(tmp) / "w.docx", ["waiting"]).read_bytes())
    # No worker ran (on-commit callbacks not executed): the order is queued.
    order_id = client.get(doc_url(doc_id)).json()["conversionOrderIds"]["pdf"]["id"]
    assert client.delete(f"/conversions/{order_id}").status_code == 200
    answer = client.get(doc_url(doc_id, "/pages/0/text", searchText="waiting"))
    assert answer.status_code == 422
    assert "deleted before it ended" in answer.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_a_delete_racing_a_conversion_that_links_its_result_succeeds(
    convert: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    client: Any,
) -> None:
    """A worker ends a conversion of the document being deleted, linking its
    result, between the delete's unlinking of orders and its DELETE: the
    delete's commit fails on the foreign key; the delete tries again and
    answers as if nothing had happened (it once answered 500)."""
    doc_id = uploaded(make_pdf(2))
    order_id = convert(doc_id, "txt")["conversionOrderId"]["id"]
    result = ConversionOrder.objects.get(pk=order_id).result_document_id
    assert result is not None
    # As before the worker's last transaction: the result made, not linked yet.
    ConversionOrder.objects.filter(pk=order_id).update(result_document=None)

    params = connection.get_connection_params()
    raced: list[str] = []

    def worker_links_first(execute: Any, sql: str, *args: Any) -> Any:
        if not raced and sql.startswith('DELETE FROM "documents_document"'):
            raced.append(sql)
            with psycopg.connect(**params, autocommit=True) as other:
                other.execute(
                    "UPDATE conversions_conversionorder SET result_document_id = %s"
                    " WHERE id = %s",
                    (result, order_id),
                )
        return execute(sql, *args)

    with connection.execute_wrapper(worker_links_first):
        answer = client.delete(doc_url(doc_id))
    assert raced, "the interleaving happened"
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"id": doc_id}
    assert not Document.objects.filter(pk__in=[doc_id, result]).exists()
    order = ConversionOrder.objects.get(pk=order_id)
    assert order.result_document_id is None, "the order outlives its result"
    assert client.get(doc_url(doc_id)).status_code == 404


def test_a_document_deleted_while_converted_fails_its_order_saying_so(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    django_capture_on_commit_callbacks: Any,
) -> None:
    doc_id = uploaded(make_pdf(2))
    response = client.post(
        "/conversions",
        data={"documentId": doc_id, "format": "txt"},
        content_type="application/json",
    )
    order_id = response.json()["conversionOrderId"]["id"]  # queued, not run
    deleted: list[bool] = []

    def delete_once_read(execute: Any, sql: str, *args: Any) -> Any:
        answer = execute(sql, *args)
        # The worker has read the document's row; its user deletes it now.
        if not deleted and sql.startswith('SELECT "documents_document"'):
            deleted.append(True)
            # Its files go once the rows' deletion commits.
            with django_capture_on_commit_callbacks(execute=True):
                document_delete(document_id=doc_id)
        return answer

    with connection.execute_wrapper(delete_once_read):
        conversion_run(order_id=order_id)
    assert deleted
    order = client.get(f"/conversions/{order_id}").json()
    assert order["currentState"] == "FAILED"
    assert order["errorMessage"] == (
        f"document {doc_id!r} was deleted while it was being converted"
    )
