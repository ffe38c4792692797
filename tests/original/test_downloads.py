"""Downloads the original's clients make beyond the PDF (FileTest, ChunkTest, the
docs' examples): the text of any readable document (`?format=txt`, and `md`),
a chunk of it, and the one PDF of a container's parts (a multi-output order's
result, an archive). Checked with poppler, python-docx and `email`."""

from __future__ import annotations

import email
import io
import subprocess
import zipfile
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import docx
import pymupdf

from documents.models import Document
from tests.conftest import doc_url, make_pdf_bytes
from tests.orders.helpers import element, order_body, pdftotext_pages, qpdf_check


def _body(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def _word_file(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Quarterly report", 0)
    document.add_paragraph("The pangolin census went well.")
    document.add_page_break()
    document.add_paragraph("Second page: the okapi count.")
    document.save(str(path))
    return path


def _scan() -> bytes:
    page = pymupdf.open().new_page(width=400, height=120)
    page.insert_text((30, 60), "Invoice Bartholomew Quill", fontsize=20)
    pixmap = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    pixmap.set_dpi(200, 200)
    return bytes(pixmap.tobytes("png"))


def _email() -> bytes:
    message = EmailMessage()
    message["From"] = "Alice Example <alice@example.org>"
    message["To"] = "bob@example.com"
    message["Subject"] = "Joyeux anniversaire"
    message.set_content("Bon anniversaire, Bob !")
    message.add_attachment(
        make_pdf_bytes(["armadillo slide"]),
        maintype="application",
        subtype="pdf",
        filename="slides.pdf",
    )
    return bytes(message)


def test_the_text_of_a_word_file_an_email_and_a_scan(
    client: Any, converted: Callable[..., str], tmp_path: Path
) -> None:
    word = _word_file(tmp_path / "report.docx")
    doc_id = converted(word.read_bytes())
    # FileTest.getDocumentWithConvertType: GET /file?format=txt, no Accept.
    response = client.get(doc_url(doc_id, "/file", format="txt"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = _body(response).decode("utf-8")
    for paragraph in docx.Document(str(word)).paragraphs:
        if paragraph.text.strip():
            assert paragraph.text in text
    # One form feed between pages, as many pages as poppler counts in the PDF.
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(_body(client.get(doc_url(doc_id, "/file", format="pdf"))))
    assert text.count("\f") == len(pdftotext_pages(pdf)) - 1 == 1
    # Made once: a second download reads the same stored rendition.
    assert _body(client.get(doc_url(doc_id, "/file", format="txt"))) == text.encode()
    assert Document.objects.filter(rendition_of_id=doc_id, format="txt").count() == 1

    mail = _email()
    mail_id = converted(mail)
    mail_text = _body(client.get(doc_url(mail_id, "/file", format="txt"))).decode()
    parsed = email.message_from_bytes(mail, policy=policy.default)
    assert parsed["Subject"] in mail_text and "alice@example.org" in mail_text
    body = parsed.get_body()
    assert body is not None and body.get_content().strip() in mail_text
    # Its attachment follows the message, a page of its own.
    assert mail_text.index("armadillo slide") > mail_text.index("Bon anniversaire")

    scan_id = converted(_scan())
    scan_text = _body(client.get(doc_url(scan_id, "/file", format="txt"))).decode()
    assert "Bartholomew" in scan_text


def test_markdown_chunks_of_text_and_formats_that_cannot_be_given(
    client: Any, converted: Callable[..., str]
) -> None:
    source = pymupdf.open()
    page = source.new_page()
    page.insert_text((72, 80), "Annual Figures", fontsize=28)
    page.insert_text((72, 140), "Revenue rose by a tenth.", fontsize=11)
    pdf_id = converted(source.tobytes())
    markdown = _body(client.get(doc_url(pdf_id, "/file", format="md"))).decode()
    assert "# Annual Figures" in markdown and "Revenue rose by a tenth." in markdown
    # The docs' example: /file/chunk?format=txt on a document, Range bytes=0-10.
    whole = _body(client.get(doc_url(pdf_id, "/file", format="txt")))
    chunk = client.get(
        doc_url(pdf_id, "/file/chunk", format="txt"), HTTP_RANGE="bytes=0-10"
    )
    assert chunk.status_code == 206 and _body(chunk) == whole[:11]
    # FileTest.getDocumentWithDifferentFormat: avi of a document is a 406, and
    # so is the text of a file without pages.
    assert client.get(doc_url(pdf_id, "/file", format="avi")).status_code == 406
    media = converted(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + bytes(512))
    refused = client.get(doc_url(media, "/file", format="txt"))
    assert refused.status_code == 406 and "no pages" in refused.json()["detail"]


def test_a_containers_pdf_is_its_parts_in_order(
    client: Any,
    converted: Callable[..., str],
    uploaded: Callable[..., str],
    run_order: Callable[..., dict[str, Any]],
    tmp_path: Path,
) -> None:
    source = uploaded(make_pdf_bytes(["alpha", "beta", "gamma"]))
    order = run_order(order_body([element(source, (3, 3))], [element(source, (1, 2))]))
    result = order["transformationResultDocumentID"]["id"]
    response = client.get(doc_url(result, "/file", format="pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    merged = tmp_path / "merged.pdf"
    merged.write_bytes(_body(response))
    qpdf_check(merged)
    assert pdftotext_pages(merged) == ["gamma", "alpha", "beta"]
    # An archive's too, a nested archive's parts in their place.
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("two.pdf", make_pdf_bytes(["two"]))
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("one.pdf", make_pdf_bytes(["one"]))
        archive.writestr("inner.zip", inner.getvalue())
        archive.writestr("three.pdf", make_pdf_bytes(["three"]))
    zip_id = converted(outer.getvalue())
    parts = tmp_path / "parts.pdf"
    parts.write_bytes(_body(client.get(doc_url(zip_id, "/file", format="pdf"))))
    assert pdftotext_pages(parts) == ["one", "two", "three"]
    info = subprocess.run(
        ["pdfinfo", str(parts)], capture_output=True, text=True, check=True
    ).stdout
    assert "Pages:           3" in info
