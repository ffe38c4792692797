"""Office files written by others, and our own, upload, convert on a worker and
then answer layout, search, images, orders and redaction like PDFs do."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conversions.models import ConversionOrder
from documents.models import Document
from tests.conftest import doc_url
from tests.convert.files import make_docx, make_pptx, make_xlsx
from tests.orders.helpers import element, file_path, order_body, pdftotext_pages
from tests.renditions.conftest import CORPUS_OFFICE


def test_every_office_file_of_the_corpus_converts_and_its_words_are_found(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    client: Any,
    office_facts: dict[str, Any],
) -> None:
    missed, searched = [], 0
    for name, facts in office_facts.items():
        data = (CORPUS_OFFICE / name).read_bytes()
        doc_id = converted(data, documentTitle=name)
        doc = Document.objects.get(pk=doc_id)
        if name == "nasty.odt":  # an undefined entity pointing at a local file
            assert doc.rendition_state == Document.Rendition.FAILED
            assert "entit" in (doc.rendition_error or "").lower(), doc.rendition_error
            continue
        assert doc.rendition_state == Document.Rendition.READY, (
            name,
            doc.rendition_error,
        )
        layout = client.get(doc_url(doc_id, "/layout")).json()
        assert layout["pageDimensionsList"], name
        for word in facts["distinctive_words"]:
            searched += 1
            if not pages_with(doc_id, word):
                missed.append((name, word))
    assert searched > 75  # every distinctive word FACTS.json lists
    assert len(missed) <= searched * 0.05, missed


def test_a_word_file_answers_like_a_pdf(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    client: Any,
    tmp_path: Path,
) -> None:
    paragraphs = [f"Paragraph {n} speaks of the quokka number {n}." for n in range(60)]
    doc_id = converted(make_docx(tmp_path / "a.docx", paragraphs).read_bytes())
    layout = client.get(doc_url(doc_id, "/layout")).json()
    assert len(layout["pageDimensionsList"]) >= 2
    assert layout["mimeType"].endswith("wordprocessingml.document")
    assert pages_with(doc_id, "quokka number 59") == [
        len(layout["pageDimensionsList"]) - 1
    ]
    image = client.get(doc_url(doc_id, "/pages/0/image", width=200))
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    original = b"".join(client.get(doc_url(doc_id, "/file")).streaming_content)
    assert original == (tmp_path / "a.docx").read_bytes()
    assert (
        b"".join(client.get(doc_url(doc_id, "/file", format="docx")).streaming_content)
        == original
    )
    pdf = client.get(doc_url(doc_id, "/file", format="pdf"))
    assert pdf["Content-Type"] == "application/pdf"


def test_spreadsheets_and_presentations_are_searchable(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    tmp_path: Path,
) -> None:
    sheet = make_xlsx(tmp_path / "s.xlsx", [["fruit", "count"], ["durian", 42]])
    slides = make_pptx(tmp_path / "p.pptx", [("Roadmap", "capybara launch")])
    assert pages_with(converted(sheet.read_bytes()), "durian") == [0]
    assert pages_with(converted(slides.read_bytes()), "capybara launch") == [0]


def test_headings_of_a_word_file_become_bookmarks(
    converted: Callable[..., str], client: Any, tmp_path: Path
) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Introduction", 1)
    document.add_paragraph("Text of the introduction.")
    document.add_page_break()
    document.add_heading("Results", 1)
    document.add_paragraph("Text of the results.")
    document.save(str(tmp_path / "h.docx"))
    doc_id = converted((tmp_path / "h.docx").read_bytes())
    bookmarks = client.get(doc_url(doc_id, "/bookmarks")).json()["bookmarks"]
    assert [(b["title"], b["page"]) for b in bookmarks] == [
        ("Introduction", 0),
        ("Results", 1),
    ]


def test_a_word_file_is_redacted_and_compared_like_a_pdf(
    converted: Callable[..., str],
    client: Any,
    run_order: Callable[..., dict[str, Any]],
    tmp_path: Path,
) -> None:
    doc_id = converted(
        make_docx(
            tmp_path / "r.docx", ["The contract names Wolfram Peabody as the buyer."]
        ).read_bytes()
    )
    hit = client.get(doc_url(doc_id, "/pages/0/text", searchText="Peabody")).json()
    position = hit["searchResults"][0]["positionText"]["position"]
    order = run_order(
        order_body(
            [element(doc_id)],
            annotations=[
                {
                    "type": "com.example.RedactTextElemType",
                    "documentId": doc_id,
                    "page": 0,
                    "id": {"id": "r1"},
                    "coords": [position],
                }
            ],
        )
    )
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = file_path(order["transformationResultDocumentID"]["id"])
    text = pdftotext_pages(out)[0]
    assert "Peabody" not in text and "buyer" in text
    mutool = subprocess.run(
        ["mutool", "draw", "-F", "txt", "-o", "-", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Peabody" not in mutool
    difference = client.get(
        "/difference",
        {
            "leftDocumentId": doc_id,
            "rightDocumentId": order["transformationResultDocumentID"]["id"],
        },
    ).json()
    deleted = " ".join(
        f["text"] for c in difference["textChanges"] for f in c["fragments"]
    )
    assert "Peabody" in deleted


def test_conversion_orders_write_office_formats(
    client: Any,
    converted: Callable[..., str],
    django_capture_on_commit_callbacks: Any,
    tmp_path: Path,
) -> None:
    import zipfile

    doc_id = converted(
        make_docx(tmp_path / "c.docx", ["Okapi sightings are rare."]).read_bytes()
    )
    with django_capture_on_commit_callbacks(execute=True):
        posted = client.post(
            "/conversions",
            data={"documentId": doc_id, "format": "odt"},
            content_type="application/json",
        )
    order = client.get(
        f"/conversions/{posted.json()['conversionOrderId']['id']}"
    ).json()
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    odt = tmp_path / "c.odt"
    odt.write_bytes(
        b"".join(client.get(doc_url(doc_id, "/file", format="odt")).streaming_content)
    )
    with zipfile.ZipFile(odt) as archive:
        assert archive.read("mimetype") == b"application/vnd.oasis.opendocument.text"
        assert b"Okapi sightings" in archive.read("content.xml")
    # A conversion the document cannot give is refused at once, with its choices.
    for impossible in ("mp4", "xlsx"):
        refused = client.post(
            "/conversions",
            data={"documentId": doc_id, "format": impossible},
            content_type="application/json",
        )
        assert refused.status_code == 400, refused.content
        message = refused.json()["errors"]["format"][0]
        assert f"cannot be converted to {impossible}" in message
        assert (
            "it converts to: docx, pdf, txt, png, jpg, odt, doc, rtf, html" in message
        )
    assert not ConversionOrder.objects.filter(format__in=("mp4", "xlsx")).exists()


@pytest.mark.parametrize(
    ("encoding", "words"),
    [
        ("utf-8", "naïve café résumé"),
        ("cp1252", "Grüße aus Köln – €"),
        ("utf-16", "Grüße aus Köln"),
        ("shift_jis", "東京の天気"),
    ],
)
def test_text_files_in_several_encodings_are_searchable(
    converted: Callable[..., str],
    pages_with: Callable[[str, str], list[int]],
    encoding: str,
    words: str,
) -> None:
    body = "\n".join(["A plain text file.", words, "The end."] * 3)
    doc_id = converted(body.encode(encoding))
    assert Document.objects.get(pk=doc_id).mime_type == "text/plain"
    assert pages_with(doc_id, words.split()[0]) == [0]
