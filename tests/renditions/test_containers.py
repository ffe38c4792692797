"""E-mails and archives become containers: part 0 the message, parts 1..n its
attachments or entries, each a document of its own, converted in turn."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from documents.models import Document
from tests.conftest import doc_url, make_pdf_bytes
from tests.convert.files import make_docx, make_msg
from tests.convert.helpers import recording_server


def _message(attachments: list[tuple[str, str, bytes]], html: str) -> bytes:
    message = EmailMessage()
    message["From"] = "Alice Example <alice@example.org>"
    message["To"] = "bob@example.com"
    message["Subject"] = "Minutes of the walrus committee"
    message["Date"] = "Tue, 24 Nov 2026 10:00:00 +0000"
    message.set_content("The walrus committee met on Tuesday.")
    message.add_alternative(html, subtype="html")
    for name, mime, data in attachments:
        maintype, subtype = mime.split("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return bytes(message)


def test_an_email_is_a_container_of_its_message_and_attachments(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    client: Any,
    tmp_path: Path,
) -> None:
    docx = make_docx(tmp_path / "a.docx", ["The attached agenda mentions pangolins."])
    with recording_server() as remote:
        data = _message(
            [
                ("agenda.docx", "application/octet-stream", docx.read_bytes()),
                ("slides.pdf", "application/pdf", make_pdf_bytes(["armadillo slide"])),
            ],
            f'<p>The walrus committee met.</p><img src="{remote.url("pixel.png")}">',
        )
        mail = converted(data, documentTitle="minutes")
        assert remote.requests == [], "the message's remote image was fetched"
    layout = client.get(doc_url(mail, "/layout")).json()
    assert layout["type"].endswith(".DocumentContainer")
    assert [c["documentId"]["id"] for c in layout["children"]] == [
        f"{mail}/0",
        f"{mail}/1",
        f"{mail}/2",
    ]
    assert all(c["pageDimensionsList"] for c in layout["children"])
    message_text = client.get(doc_url(f"{mail}/0", "/pages/0/text/position")).json()
    lines = " ".join(p["text"] for p in message_text["positionTextList"])
    assert "alice@example.org" in lines and "Minutes of the walrus committee" in lines
    # The attachments are documents of their own; the path may write / as @.
    assert pages_with(f"{mail}@1", "pangolins") == [0]
    assert pages_with(f"{mail}/2", "armadillo") == [0]
    assert Document.objects.get(pk=f"{mail}/1").title == "agenda.docx"
    # A container has no pages of its own.
    page = client.get(doc_url(mail, "/pages/0/text", searchText="walrus"))
    assert page.status_code == 415 and "container" in page.json()["detail"]


def test_an_outlook_message_opens_like_an_email(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    tmp_path: Path,
) -> None:
    msg = make_msg(
        tmp_path / "m.msg",
        subject="Okapi census",
        body="Counting okapis this week.",
        attachments=[("notes.pdf", make_pdf_bytes(["okapi notes inside"]))],
    )
    mail = converted(msg.read_bytes())
    assert Document.objects.get(pk=mail).is_container
    assert pages_with(f"{mail}/0", "okapis") == [0]
    assert pages_with(f"{mail}/1", "okapi notes") == [0]


def test_a_zip_is_a_container_of_its_entries_numbered_from_1(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    client: Any,
) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("deep.txt", "the heron is inside the inner archive")
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("docs/", "")  # a directory takes no number
        archive.writestr("docs/../../etc/report.pdf", make_pdf_bytes(["egret report"]))
        archive.writestr("inner.zip", inner.getvalue())
        archive.writestr("readme.txt", "a plain readme about ibises")
        archive.writestr("movie.bin", b"\x00\x01not a known format")
    zip_id = converted(outer.getvalue())
    children = Document.objects.filter(parent_id=zip_id).order_by("part")
    assert [c.part for c in children] == [1, 2, 3, 4]
    # A folder is a container of its own (its climb out of the archive is not
    # followed): the report is the first entry of the first folder.
    assert children[0].title == "etc"
    folder = client.get(doc_url(f"{zip_id}/1", "/layout")).json()
    assert folder["type"].endswith(".DocumentContainer")
    assert [c["documentId"]["id"] for c in folder["children"]] == [f"{zip_id}/1/1"]
    assert Document.objects.get(pk=f"{zip_id}/1/1").title == "report.pdf"
    assert pages_with(f"{zip_id}/1/1", "egret") == [0]
    assert pages_with(f"{zip_id}/3", "ibises") == [0]
    nested = client.get(doc_url(f"{zip_id}/2", "/layout")).json()
    assert nested["type"].endswith(".DocumentContainer")
    assert pages_with(f"{zip_id}/2/1", "heron") == [0]
    # An entry no engine reads is kept, without pages, and downloads as it was.
    kept = client.get(doc_url(f"{zip_id}/4", "/file"))
    assert b"".join(kept.streaming_content) == b"\x00\x01not a known format"
    # Deleting the archive deletes its parts.
    assert client.delete(doc_url(zip_id)).status_code == 200
    assert not Document.objects.filter(pk__startswith=zip_id).exists()


def test_a_zip_bomb_fails_its_conversion_with_a_clear_message(
    convert_upload: Callable[..., Any], client: Any
) -> None:
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.txt", b"\0" * (300 * 1024 * 1024))
    answer = convert_upload(bomb.getvalue())
    assert answer.status_code == 200  # stored at once, opened by a worker
    zip_id = answer.json()["id"]
    layout = client.get(doc_url(zip_id, "/layout")).json()
    assert "renditionError" in layout, layout
    assert "decompression bomb" in layout["renditionError"]
    assert not Document.objects.filter(parent_id=zip_id).exists()
