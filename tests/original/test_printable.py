"""GET /printable as the original's PrintableTest reads it: Content-Type exactly
application/pdf, and the print action found in the file's bytes as the
original writes it, for a PDF, an image and a zip (one PDF of its parts)."""

from __future__ import annotations

import io
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
from PIL import Image

from tests.conftest import doc_url, make_pdf_bytes
from tests.orders.helpers import pdftotext_pages, qpdf_check

# The client's own string, built as it builds it (PrintableTest.bodyContains).
BODY_CONTAINS = (
    "<<"
    + "\n/Type /Action"
    + "\n/S /JavaScript"
    + "\n/JS (this.print\\(\\);this.closeDoc\\(true\\))"
    + "\n>>"
)


def _jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), "navy").save(out, "JPEG")
    return out.getvalue()


def _printable(client: Any, document_id: str, tmp_path: Path) -> Path:
    # Documents.getPrintableDocument: content type JSON, no Accept.
    response = client.get(
        doc_url(document_id, "/printable"), CONTENT_TYPE="application/json"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    assert BODY_CONTAINS.encode("latin-1") in data
    path = tmp_path / f"{len(list(tmp_path.iterdir()))}.pdf"
    path.write_bytes(data)
    qpdf_check(path)
    with pikepdf.open(path) as pdf:  # readers find the action it names
        assert str(pdf.Root.OpenAction.JS) == "this.print();this.closeDoc(true)"
    return path


def test_the_print_action_is_written_as_the_original_writes_it(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    pdf = _printable(client, converted(make_pdf_bytes(["first", "second"])), tmp_path)
    assert pdftotext_pages(pdf) == ["first", "second"]
    image = _printable(client, converted(_jpeg()), tmp_path)
    assert len(pdftotext_pages(image)) == 1
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as entries:
        entries.writestr("folder/a.pdf", make_pdf_bytes(["part one"]))
        entries.writestr("folder/b.jpg", _jpeg())
        entries.writestr("c.pdf", make_pdf_bytes(["part three", "part three again"]))
    parts = _printable(client, converted(archive.getvalue()), tmp_path)
    pages = pdftotext_pages(parts)
    assert len(pages) == 4
    assert (pages[0], pages[2], pages[3]) == (
        "part one",
        "part three",
        "part three again",
    )
    info = subprocess.run(["pdfinfo", str(parts)], capture_output=True, text=True)
    assert "Pages:           4" in info.stdout
    assert client.get(doc_url("bad id", "/printable")).status_code == 404
