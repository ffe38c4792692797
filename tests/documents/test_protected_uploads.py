"""Password-protected PDFs and Office files open with the password sent in the
X-Document-Password header; the password is never stored nor echoed."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from typing import Any

import pikepdf
from docx import Document as Docx
from msoffcrypto.format.ooxml import OOXMLFile

from documents.models import Document
from tests.conftest import doc_url

HEADER = {"HTTP_X_DOCUMENT_PASSWORD": "s3cret-Pa55"}


def _locked_pdf(make_pdf: Callable[..., bytes]) -> bytes:
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(make_pdf(["Quarterly budget of the lab"]))) as pdf:
        pdf.save(out, encryption=pikepdf.Encryption(user="s3cret-Pa55", owner="o"))
    return out.getvalue()


def _post(client: Any, data: bytes, **headers: str) -> Any:
    return client.post(
        "/documents", data=data, content_type="application/octet-stream", **headers
    )


def test_a_protected_pdf_opens_with_its_password_and_is_searchable(
    client: Any, make_pdf: Callable[..., bytes]
) -> None:
    locked = _locked_pdf(make_pdf)
    refused = _post(client, locked)
    assert refused.status_code == 415
    assert "X-Document-Password" in refused.json()["detail"]

    response = _post(client, locked, **HEADER)
    assert response.status_code == 200, response.content
    doc_id = response.json()["id"]
    hits = client.get(doc_url(doc_id, "/pages/0/text", searchText="budget")).json()
    assert hits, "the decrypted document is searchable"
    stored = Document.objects.get(pk=doc_id).file.path
    text = subprocess.run(
        ["pdftotext", stored, "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Quarterly budget" in text  # poppler reads it without a password
    assert b"s3cret-Pa55" not in open(stored, "rb").read()


def test_a_wrong_password_is_a_400_naming_the_header(
    client: Any, make_pdf: Callable[..., bytes]
) -> None:
    response = _post(client, _locked_pdf(make_pdf), HTTP_X_DOCUMENT_PASSWORD="not-it")
    assert response.status_code == 400, response.content
    body = response.json()
    assert "X-Document-Password" in body["errors"]
    assert body["code"] == "password_required"
    assert "not-it" not in response.content.decode()


def test_a_protected_word_file_opens_with_its_password(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    word = Docx()
    word.add_paragraph("Minutes of the protected board meeting")
    plain = io.BytesIO()
    word.save(plain)
    plain.seek(0)
    locked = io.BytesIO()
    office = OOXMLFile(plain)
    office.encrypt("s3cret-Pa55", locked)
    assert _post(client, locked.getvalue()).status_code == 415
    with django_capture_on_commit_callbacks(execute=True):  # converted at once
        response = _post(client, locked.getvalue(), **HEADER)
    assert response.status_code == 200, response.content
    doc_id = response.json()["id"]
    text = client.get(doc_url(doc_id, "/pages/0/text", searchText="board")).json()
    assert text, "converted and searchable"
