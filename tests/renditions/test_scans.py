"""Images and scanned PDFs: their pages at their resolution, their words found
by OCR, and redaction that removes the words from text and pixels alike."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest
from PIL import Image

from documents.models import Document
from tests.conftest import doc_url
from tests.orders.helpers import element, file_path, order_body, pdftotext_pages

LINES = ["Invoice for Bartholomew Quill", "Amount due: 4,200 euros", "Thank you"]


def scan_png(lines: list[str] = LINES, dpi: int = 300) -> bytes:
    """A letter page with `lines`, as a scanner at `dpi` would give it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for n, line in enumerate(lines):
        page.insert_text((72, 100 + 40 * n), line, fontsize=16)
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    pixmap.set_dpi(dpi, dpi)
    return bytes(pixmap.tobytes("png"))


def test_an_image_scan_is_searchable_and_redacted_in_text_and_pixels(
    converted: Callable[..., str],
    client: Any,
    run_order: Callable[..., dict[str, Any]],
    tmp_path: Path,
) -> None:
    doc_id = converted(scan_png())
    layout = client.get(doc_url(doc_id, "/layout")).json()
    assert layout["pageDimensionsList"][0]["dpi"] == 300
    assert layout["pageDimensionsList"][0]["width"] == 612
    hits = client.get(doc_url(doc_id, "/pages/0/text", searchText="Bartholomew"))
    results = hits.json()["searchResults"]
    assert len(results) == 1, hits.json()
    box = results[0]["positionText"]["position"]
    # Where the word is drawn: 72 pt from the left, its baseline at 100 pt.
    assert 65 < box["x"] < 200 and 80 < box["y"] < 105 and box["h"] < 25
    order = run_order(
        order_body(
            [element(doc_id)],
            annotations=[
                {
                    "type": "x.RedactTextElemType",
                    "documentId": doc_id,
                    "page": 0,
                    "id": {"id": "r"},
                    "coords": [box],
                }
            ],
        )
    )
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = file_path(order["transformationResultDocumentID"]["id"])
    text = pdftotext_pages(out)[0]
    assert "Bartholomew" not in text and "Amount due" in text
    # The pixels that showed the word are blank: a new OCR pass of the image
    # extracted from the output does not find it.
    with pikepdf.open(out) as pdf:
        images = list(pdf.pages[0].get_images().values())
        assert images
        picture = pikepdf.PdfImage(images[0]).as_pil_image()  # type: ignore[arg-type]
    picture.save(tmp_path / "out.png")
    seen = subprocess.run(
        ["tesseract", str(tmp_path / "out.png"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Bartholomew" not in seen and "Amount" in seen


def test_a_scanned_pdf_is_recognised_unless_ocr_is_off(
    converted: Callable[..., str], client: Any
) -> None:
    scan = pymupdf.open()
    page = scan.new_page(width=612, height=792)
    page.insert_image(page.rect, stream=scan_png(["Certificate of Zenobia Lark"]))
    data = scan.tobytes()
    read = converted(data)
    unread = converted(data, ocr="never")
    assert Document.objects.get(pk=unread).text_state == Document.Text.READY

    def found(doc_id: str) -> int:
        answer = client.get(doc_url(doc_id, "/pages/0/text", searchText="Zenobia"))
        return len(answer.json()["searchResults"])

    assert found(read) == 1 and found(unread) == 0
    # The upload itself is kept as it was; its PDF to read is the recognised one.
    original = b"".join(client.get(doc_url(read, "/file")).streaming_content)
    assert original == data
    pdf = b"".join(client.get(doc_url(read, "/file", format="pdf")).streaming_content)
    assert "Zenobia" in pymupdf.open(stream=pdf)[0].get_text()


def test_selected_pages_of_a_scan_stay_searchable(
    converted: Callable[..., str], run_order: Callable[..., dict[str, Any]]
) -> None:
    scan = pymupdf.open()
    for words in (["first page of the scan"], ["second page mentions Ulysses"]):
        page = scan.new_page(width=612, height=792)
        page.insert_image(page.rect, stream=scan_png(words, dpi=200))
    doc_id = converted(scan.tobytes())
    order = run_order(order_body([element(doc_id, (2, 2))]))
    out = file_path(order["transformationResultDocumentID"]["id"])
    assert "Ulysses" in pdftotext_pages(out)[0]


def test_gif_frames_become_pages_and_a_tiff_keeps_its_resolution(
    converted: Callable[..., str], client: Any
) -> None:
    frames = [Image.new("RGB", (200, 100), colour) for colour in ("red", "blue")]
    gif = io.BytesIO()
    frames[0].save(gif, "GIF", save_all=True, append_images=frames[1:])
    gif_layout = client.get(doc_url(converted(gif.getvalue()), "/layout")).json()
    assert len(gif_layout["pageDimensionsList"]) == 2
    tiff = io.BytesIO()
    Image.new("L", (600, 300), 255).save(tiff, "TIFF", dpi=(300, 300))
    page = client.get(doc_url(converted(tiff.getvalue()), "/layout")).json()[
        "pageDimensionsList"
    ][0]
    assert (page["width"], page["height"], page["dpi"]) == (144, 72, 300)
    for kind in ("BMP", "WEBP"):
        picture = io.BytesIO()
        Image.new("RGB", (720, 360), "green").save(picture, kind)
        layout = client.get(doc_url(converted(picture.getvalue()), "/layout")).json()
        first = layout["pageDimensionsList"][0]
        # The page is the image at its resolution: 720 px wide in points.
        assert first["width"] == pytest.approx(720 * 72 / first["dpi"], abs=1), kind


@pytest.mark.parametrize(
    "head",
    [
        b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom",
        b"ID3\x04\x00\x00\x00\x00\x00\x00",
    ],
)
def test_media_are_kept_without_pages(
    converted: Callable[..., str], client: Any, head: bytes
) -> None:
    data = head + b"\x00" * 2048
    doc_id = converted(data)
    meta = client.get(doc_url(doc_id)).json()
    assert meta["mimeType"].split("/")[0] in ("video", "audio")
    assert client.get(doc_url(doc_id, "/layout")).json()["pageDimensionsList"] == []
    page = client.get(doc_url(doc_id, "/pages/0/image"))
    assert page.status_code == 415 and "no pages" in page.json()["detail"]
    assert b"".join(client.get(doc_url(doc_id, "/file")).streaming_content) == data
    assert client.delete(doc_url(doc_id)).status_code == 200
