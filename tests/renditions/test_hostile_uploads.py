"""Hostile files through the API: each ends with a clear 4xx at upload or a
FAILED conversion whose reason every reader answers, within its limits; the
worker's converter pool goes on converting afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from conversions.models import ConversionOrder
from documents.models import Document
from tests.conftest import doc_url
from tests.convert import hostile
from tests.convert.files import make_docx, make_ole


def _failed_with(client: Any, doc_id: str, *words: str) -> str:
    doc = Document.objects.get(pk=doc_id)
    assert doc.rendition_state == Document.Rendition.FAILED, doc.rendition_state
    reason = doc.rendition_error or ""
    for word in words:
        assert word in reason.lower(), reason
    assert "/tmp" not in reason and "/work" not in reason
    answer = client.get(doc_url(doc_id, "/pages/0/text", searchText="x"))
    assert answer.status_code == 422 and reason in answer.json()["detail"]
    order = ConversionOrder.objects.get(document_id=doc_id, automatic=True)
    assert order.state == "FAILED" and order.error_message == reason
    return reason


def test_a_password_protected_word_file_is_refused_at_upload(
    convert_upload: Callable[..., Any],
) -> None:
    answer = convert_upload(encrypted_docx())
    assert answer.status_code == 415
    assert "password" in answer.json()["detail"]


def encrypted_docx() -> bytes:
    """An OOXML file encrypted by Office: an OLE2 compound file holding
    EncryptionInfo and EncryptedPackage streams."""
    with tempfile.TemporaryDirectory() as tmp:
        path = make_ole(
            Path(tmp) / "e.docx",
            {
                "EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60),
                "EncryptedPackage": bytes(4096),
            },
        )
        return path.read_bytes()


def test_bombs_and_giant_sheets_fail_clearly_and_the_pool_goes_on(
    converted: Callable[..., str],
    client: Any,
    pages_with: Callable[[str, str], list[int]],
    tmp_path: Path,
) -> None:
    laughs = converted(hostile.docx_billion_laughs(tmp_path / "l.docx").read_bytes())
    _failed_with(client, laughs, "entit")
    bomb = converted(
        hostile.docx_with_zip_bomb(tmp_path / "b.docx", 300 * 1024**2).read_bytes()
    )
    _failed_with(client, bomb)
    rows = converted(
        hostile.xlsx_with_rows(tmp_path / "r.xlsx", 1_000_000).read_bytes()
    )
    _failed_with(client, rows, "rows")
    after = converted(
        make_docx(tmp_path / "ok.docx", ["Still converting"]).read_bytes()
    )
    assert pages_with(after, "Still converting") == [0]


def test_an_email_with_500_attachments_keeps_the_first_ones_and_says_so(
    converted: Callable[..., str], client: Any, settings: Any
) -> None:
    # The limit is the setting (200 by default): a lower one keeps the same path
    # and spares storing and converting 180 parts.
    assert settings.SERVICE.mail_max_attachments == 200
    settings.SERVICE = replace(settings.SERVICE, mail_max_attachments=20)
    message = EmailMessage()
    message["From"] = "spam@example.org"
    message["Subject"] = "Many files"
    message.set_content("See attached.")
    for n in range(500):
        message.add_attachment(
            f"file {n}".encode(), maintype="text", subtype="plain", filename=f"f{n}.txt"
        )
    mail = converted(bytes(message))
    parts = Document.objects.filter(parent_id=mail).count()
    assert parts == 1 + 20  # the message and the first 20 (the setting)
    lines = client.get(doc_url(f"{mail}/0", "/pages/0/text/position")).json()
    text = " ".join(p["text"] for p in lines["positionTextList"])
    assert "480 of the 500 attachments are not shown" in text, text


def test_malformed_mail_and_unknown_bytes_end_cleanly(
    convert_upload: Callable[..., Any], client: Any
) -> None:
    broken = (
        b"From: a@example.org\r\nSubject: broken\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\n'
        b"Content-Type: text/plain\r\n\r\nbody without an end\r\n--x"
    )
    answer = convert_upload(broken)
    assert answer.status_code == 200
    state = Document.objects.get(pk=answer.json()["id"]).rendition_state
    assert state in (Document.Rendition.READY, Document.Rendition.FAILED)
    noise = bytes(range(256)) * 64
    refused = convert_upload(noise)
    assert refused.status_code == 415
    assert "failOnUnsupported" in refused.json()["detail"]
    kept = convert_upload(noise, failOnUnsupported="false")
    assert kept.status_code == 200
    doc_id = kept.json()["id"]
    assert Document.objects.get(pk=doc_id).rendition_state == Document.Rendition.NONE
    assert client.get(doc_url(doc_id, "/file", format="pdf")).status_code == 406
