"""Container layouts as the original's LayoutTest reads them: nested children
whose ids are their full path from the root (`children.children.documentId.id`
holds `<id>/1/1`), each child with its own mimeType."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from tests.conftest import doc_url, make_pdf_bytes
from tests.convert.files import make_msg


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (60, 30), "white").save(out, "PNG")
    return out.getvalue()


def test_a_zip_inside_a_zip_gives_nested_children_with_full_path_ids(
    client: Any, converted: Callable[..., str]
) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("flower.png", _png())
        archive.writestr("notes.pdf", make_pdf_bytes(["notes"]))
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("dossier.zip", inner.getvalue())
        archive.writestr("racine.pdf", make_pdf_bytes(["racine"]))
    zip_id = converted(outer.getvalue())
    assert client.get(doc_url(zip_id, "/check")).status_code == 200
    layout = client.get(doc_url(zip_id, "/layout")).json()
    assert layout["type"].endswith("DocumentContainer")
    assert layout["mimeType"] == "application/zip"
    folder, racine = layout["children"]
    assert (folder["documentId"]["id"], folder["mimeType"]) == (
        f"{zip_id}/1",
        "application/zip",
    )
    assert (racine["documentId"]["id"], racine["mimeType"]) == (
        f"{zip_id}/2",
        "application/pdf",
    )
    # JsonPath children.children.documentId.id, as the client reads it.
    nested = [c["documentId"]["id"] for c in folder["children"]]
    assert nested == [f"{zip_id}/1/1", f"{zip_id}/1/2"]
    assert [c["mimeType"] for c in folder["children"]] == [
        "image/png",
        "application/pdf",
    ]
    # Each nested child is a document of its own, by path or with `@`.
    assert client.get(doc_url(f"{zip_id}@1@2", "/check")).status_code == 200
    pages = client.get(doc_url(f"{zip_id}/1/2", "/pages/0/text/position")).json()
    assert [line["text"] for line in pages["positionTextList"]] == ["notes"]


def test_an_outlook_message_lists_its_parts_with_their_types(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    msg = make_msg(
        tmp_path / "bulletin.msg",
        subject="Bulletin de salaire",
        body="Veuillez trouver ci-joint votre bulletin.",
        attachments=[("bulletin.pdf", make_pdf_bytes(["salaire"]))],
    )
    msg_id = converted(msg.read_bytes())
    layout = client.get(doc_url(msg_id, "/layout")).json()
    assert layout["type"].endswith("DocumentContainer")
    assert layout["mimeType"] == "application/vnd.ms-outlook"
    message, attachment = layout["children"]
    assert message["documentId"]["id"] == f"{msg_id}/0"
    # The message itself (headers and body), as the original's client looks for it.
    assert message["mimeType"] == "text/html"
    assert (attachment["documentId"]["id"], attachment["mimeType"]) == (
        f"{msg_id}/1",
        "application/pdf",
    )
    lines = client.get(doc_url(f"{msg_id}/0", "/pages/0/text/position")).json()
    text = " ".join(line["text"] for line in lines["positionTextList"])
    assert "Bulletin de salaire" in text and "bulletin." in text
    page = client.get(doc_url(f"{msg_id}/0", "/file"))
    assert page["Content-Type"].startswith("text/html")
    assert b"Bulletin de salaire" in b"".join(page.streaming_content)


def test_folders_of_a_zip_are_nested_containers_as_the_original_gives_them(
    client: Any, converted: Callable[..., str]
) -> None:
    """The original's client reads `children.children.documentId.id` of a ZIP
    whose files sit in folders (its ARenderTest.zip) and looks for `/1/1`."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("dossier/", "")
        zf.writestr("dossier/images/", "")
        zf.writestr("dossier/images/flower.pdf", make_pdf_bytes(["a tulip"]))
        zf.writestr("dossier/notes.txt", "a note about roses")
    zip_id = converted(archive.getvalue())
    layout = client.get(doc_url(zip_id, "/layout")).json()
    (folder,) = layout["children"]
    assert folder["documentId"]["id"] == f"{zip_id}/1"
    assert folder["type"].endswith("DocumentContainer")
    ids = [child["documentId"]["id"] for child in folder["children"]]
    assert ids == [f"{zip_id}/1/1", f"{zip_id}/1/2"]
    images = folder["children"][0]
    assert [c["documentId"]["id"] for c in images["children"]] == [f"{zip_id}/1/1/1"]
    lines = client.get(doc_url(f"{zip_id}/1/2", "/pages/0/text/position")).json()
    assert "roses" in " ".join(line["text"] for line in lines["positionTextList"])
