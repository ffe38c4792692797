"""GET /documents/<id>/check as the original's client calls it right after an
upload (its CheckInfosDocTest): 200 for every document the service holds,
whatever it is; 404 only for an id it does not know."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from PIL import Image

from tests.conftest import doc_url, make_pdf_bytes
from tests.convert.files import make_docx

JSON = "application/json"
MP4_HEAD = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"


def _check(client: Any, document_id: str) -> Any:
    # The client's own call: Documents.checkDocument (content type JSON, no body).
    return client.get(doc_url(document_id, "/check"), CONTENT_TYPE=JSON)


def _gif() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), "red").save(out, "GIF")
    return out.getvalue()


def _eml() -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["To"] = "bob@example.com"
    message["Subject"] = "Joyeux anniversaire"
    message.set_content("Bon anniversaire !")
    return bytes(message)


def _zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("folder/a.pdf", make_pdf_bytes(["a"]))
    return out.getvalue()


def test_check_answers_200_for_every_kind_of_document_right_after_its_upload(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    docx = make_docx(tmp_path / "t.docx", ["Title", "Some words."]).read_bytes()
    uploads = {
        "pdf": make_pdf_bytes(1),
        "mp4": MP4_HEAD + b"\x00" * 2048,
        "gif": _gif(),
        "zip": _zip(),
        "eml": _eml(),
        "docx": docx,
    }
    for kind, data in uploads.items():
        doc_id = converted(data)
        response = _check(client, doc_id)
        assert (response.status_code, response.content) == (200, b""), kind
    stored_as_is = converted(
        b"\x01\x02 no engine reads this", failOnUnsupported="false"
    )
    assert _check(client, stored_as_is).status_code == 200


def test_check_is_404_only_for_an_unknown_or_deleted_id(
    client: Any, uploaded: Callable[..., str]
) -> None:
    assert _check(client, "bad id").status_code == 404
    doc_id = uploaded(make_pdf_bytes(1))
    assert client.delete(doc_url(doc_id)).status_code == 200
    gone = _check(client, doc_id)
    assert gone.status_code == 404
    assert gone["Content-Type"] == "application/problem+json"


def test_check_waits_for_a_conversion_under_way_as_the_layout_does(
    client: Any, settings: Any, tmp_path: Path
) -> None:
    docx = make_docx(tmp_path / "t.docx", ["Title", "Still converting."])
    # Uploaded without running its conversion (no worker ran the order yet).
    pending = client.post(
        "/documents", data=docx.read_bytes(), content_type="application/octet-stream"
    ).json()["id"]
    archive = client.post(
        "/documents", data=_zip(), content_type="application/octet-stream"
    ).json()["id"]
    settings.SERVICE = replace(settings.SERVICE, rendition_wait=0.2)
    for doc_id, suffix in (
        (pending, "/check"),
        (pending, "/layout"),
        # A container's PDF and printable copy wait for its parts too.
        (archive, "/check"),
        (archive, "/file?format=pdf"),
        (archive, "/printable"),
    ):
        busy = client.get(doc_url(doc_id, suffix))
        assert busy.status_code == 503, suffix
        assert busy["Retry-After"] == "5"
