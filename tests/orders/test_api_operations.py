"""Operations of transformation orders through the HTTP API (stamp, Bates and page
numbers, rotate, crop, forms, metadata, sanitize, outline, encrypt), each output
read back by tools that share no code with the service: poppler, qpdf, pikepdf."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest
from django.db import connection

from documents.models import Document
from orders.models import TransformationOrder
from tests.orders.helpers import element, order_body, pdftotext_pages, qpdf_check

Run = Callable[[dict[str, Any]], dict[str, Any]]


def _output(order: dict[str, Any], n: int | None = None) -> Path:
    ids = order["transformationResultDocumentIDs"]
    doc_id = (
        order["transformationResultDocumentID"]["id"] if n is None else ids[n]["id"]
    )
    return Path(Document.objects.get(pk=doc_id).file.path)


def _words_with_boxes(path: Path, page: int) -> list[tuple[str, float, float]]:
    """(word, x, y) of page `page` (from 1) according to poppler's -bbox."""
    html = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        (m[5], float(m[1]), float(m[2]))
        for m in re.finditer(
            r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<',
            html,
        )
    ]


@pytest.fixture
def three_docs(
    uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> list[str]:
    return [uploaded(make_pdf(n + 2, prefix=f"doc{n}")) for n in range(3)]


def test_bates_numbers_run_on_across_the_outputs_of_a_production(
    run_order: Run, three_docs: list[str], admin_client: Any
) -> None:
    body = order_body(*[[element(d)] for d in three_docs])
    body["operations"] = [
        {
            "type": "bates",
            "prefix": "ACME-",
            "digits": 6,
            "start": 41,
            "position": "bottomRight",
        }
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    numbers = []
    for n in range(3):
        for page_text in pdftotext_pages(_output(order, n)):
            found = [w for w in page_text.split() if w.startswith("ACME-")]
            assert len(found) == 1, page_text
            numbers.append(found[0])
    # 2 + 3 + 4 pages numbered 41 to 49 with no gap, in order.
    assert numbers == [f"ACME-{n:06d}" for n in range(41, 50)]
    results = order["operationResults"]
    assert [r["bates"] for r in results] == [
        {"first": 41, "last": 42},
        {"first": 43, "last": 45},
        {"first": 46, "last": 49},
    ]
    # Bottom right: every number sits in the lower right quarter of its page.
    for word, x, y in _words_with_boxes(_output(order, 2), 1):
        if word.startswith("ACME-"):
            assert x > 595 / 2 and y > 842 * 3 / 4, (x, y)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT operations, bates_first, bates_last FROM "
            "transformation_order_report WHERE order_id = %s",
            [order["transformationOrderId"]["id"]],
        )
        assert cursor.fetchone() == ("bates", 41, 49)
    page = admin_client.get(
        f"/admin/orders/transformationorder/{order['transformationOrderId']['id']}"
        "/change/"
    ).content.decode()
    assert "Bates 41 to 42" in page and "Bates 46 to 49" in page


def test_a_bates_number_keeps_clear_of_a_redaction_area(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(1))
    area = {"x": 395, "y": 742, "w": 200, "h": 100}  # the bottom right corner
    body = order_body(
        [element(doc)],
        annotations=[
            {"type": "RedactElemType", "documentId": doc, "page": 0, "position": area}
        ],
    )
    body["operations"] = [{"type": "bates", "prefix": "B", "position": "bottomRight"}]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = _output(order)
    words = [(w, x, y) for w, x, y in _words_with_boxes(out, 1) if w.startswith("B")]
    assert len(words) == 1
    _, x, y = words[0]
    inside = area["x"] <= x <= area["x"] + area["w"] and area["y"] <= y
    assert not inside, words
    assert order["operationResults"][0]["moved"] == [1]


def test_a_stamp_is_drawn_where_asked_and_searchable(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(3))
    body = order_body([element(doc)])
    body["transformationDetails"][0]["operations"] = [
        {
            "type": "stamp",
            "text": "CONFIDENTIAL",
            "fontSize": 40,
            "color": {"r": 255, "g": 0, "b": 0},
            "opacity": 1,
            "position": "topLeft",
            "pages": [{"minPage": 2, "maxPage": 3}],
        }
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = _output(order)
    pages = pdftotext_pages(out)
    assert "CONFIDENTIAL" not in pages[0]
    assert all("CONFIDENTIAL" in p for p in pages[1:])
    # Red pixels in the top left corner of page 2, none on page 1.
    with pymupdf.open(out) as pdf:
        for n, expected in ((0, False), (1, True)):
            pixmap = pdf[n].get_pixmap(clip=pymupdf.Rect(0, 0, 300, 120))
            samples = pixmap.samples
            red = sum(
                1
                for i in range(0, len(samples), pixmap.n)
                if samples[i] > 200 and samples[i + 1] < 80 and samples[i + 2] < 80
            )
            assert (red > 100) is expected, (n, red)


def test_a_stamp_that_names_a_redacted_word_fails_the_order_saying_which(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(["Secret plan of Acme"]))
    hit = pymupdf.open("pdf", make_pdf(["Secret plan of Acme"]))[0].search_for("Acme")[
        0
    ]
    area = {"x": hit.x0, "y": hit.y0, "w": hit.width, "h": hit.height}
    body = order_body(
        [element(doc)],
        annotations=[
            {"type": "RedactElemType", "documentId": doc, "page": 0, "position": area}
        ],
    )
    body["operations"] = [{"type": "stamp", "text": "Copy for ACME only"}]
    order = run_order(body)
    assert order["currentState"] == "FAILED"
    assert "operations[0]" in order["errorMessage"]
    assert "redacts" in order["errorMessage"]


def test_rotate_crop_metadata_and_outline_of_a_merge(
    run_order: Run, three_docs: list[str], tmp_path: Path
) -> None:
    body = order_body(
        [
            element(three_docs[0], title="Exhibit A"),
            element(three_docs[1], title="Exhibit B"),
        ]
    )
    body["operations"] = [
        {"type": "rotate", "angle": 90, "pages": [{"minPage": 1, "maxPage": 1}]},
        {"type": "crop", "box": {"x": 0, "y": 0, "w": 500, "h": 700}},
        {"type": "metadata", "title": "Production 7", "author": "Records"},
        {"type": "outline"},
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = _output(order)
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "5", str(out)], capture_output=True, text=True
    ).stdout
    assert "Title:           Production 7" in info
    assert "Author:          Records" in info
    assert re.search(r"Page +1 rot: +90\n", info), info
    assert re.search(r"Page +2 rot: +0\n", info), info
    with pikepdf.open(out) as pdf:
        titles = [item.title for item in pdf.open_outline().root]
        assert titles == ["Exhibit A", "Exhibit B"]
        box = [float(v) for v in pdf.pages[1].cropbox]
        assert box[2] - box[0] == pytest.approx(500) and box[3] - box[
            1
        ] == pytest.approx(700)


def test_a_filled_form_shows_its_values_once_flattened(
    run_order: Run, uploaded: Callable[..., str]
) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    for n, name in enumerate(("applicant", "city")):
        widget = pymupdf.Widget()
        widget.field_name = name
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(72, 100 + 40 * n, 372, 124 + 40 * n)
        page.add_widget(widget)
    doc = uploaded(pdf.tobytes())
    body = order_body([element(doc)])
    body["operations"] = [
        {
            "type": "fillForm",
            "values": {"applicant": "Jane Doe", "city": "Lyon"},
            "flatten": True,
        }
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = _output(order)
    assert "Jane Doe" in pdftotext_pages(out)[0] and "Lyon" in pdftotext_pages(out)[0]
    with pikepdf.open(out) as flat:
        assert "/AcroForm" not in flat.Root or not flat.Root.AcroForm.get("/Fields")


def test_sanitize_leaves_no_script_attachment_nor_xmp(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    with pymupdf.open("pdf", make_pdf(1)) as linked:
        linked[0].insert_link(
            {
                "kind": pymupdf.LINK_URI,
                "from": pymupdf.Rect(72, 72, 200, 90),
                "uri": "https://tracker.example/pixel",
            }
        )
        source = linked.tobytes()
    with pikepdf.open(io.BytesIO(source)) as pdf:
        pdf.Root.OpenAction = pikepdf.Dictionary(
            S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)")
        )
        pdf.attachments["notes.txt"] = pikepdf.AttachedFileSpec(pdf, b"attached")
        with pdf.open_metadata() as meta:
            meta["dc:title"] = "hidden title"
        buffer = io.BytesIO()
        pdf.save(buffer)
    doc = uploaded(buffer.getvalue())
    body = order_body([element(doc)])
    body["operations"] = [{"type": "sanitize"}]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    raw = _output(order).read_bytes()
    qdf = subprocess.run(
        ["qpdf", "--qdf", "--object-streams=disable", str(_output(order)), "-"],
        capture_output=True,
        check=True,
    ).stdout
    for marker in (
        b"/JavaScript",
        b"/EmbeddedFiles",
        b"/Metadata",
        b"app.alert",
        b"tracker.example",
    ):
        assert marker not in qdf, marker
    assert b"attached" not in raw
    # The link to elsewhere came through the assembly; sanitize removed it.
    removed = order["operationResults"][0].get("removed") or {}
    assert removed.get("externalLinks") == 1, order["operationResults"]


def test_an_encrypted_output_opens_only_with_its_password_which_is_never_kept(
    run_order: Run, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    doc = uploaded(make_pdf(1))
    body = order_body([element(doc)])
    body["operations"] = [
        {"type": "encrypt", "userPassword": "open-sesame", "ownerPassword": "own-it"}
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = _output(order)
    refused = subprocess.run(
        ["qpdf", "--check", str(out)], capture_output=True, text=True
    )
    assert refused.returncode != 0
    opened = subprocess.run(
        ["qpdf", "--check", "--password=open-sesame", str(out)],
        capture_output=True,
        text=True,
    )
    assert opened.returncode == 0, opened.stdout + opened.stderr
    assert (
        "AESv3"
        in subprocess.run(
            ["qpdf", "--show-encryption", "--password=open-sesame", str(out)],
            capture_output=True,
            text=True,
        ).stdout
    )
    # Neither the order's echo nor its stored row holds the password.
    assert "open-sesame" not in str(order)
    stored = TransformationOrder.objects.get(pk=order["transformationOrderId"]["id"])
    assert "open-sesame" not in str(stored.request) + str(stored.spec_json)


@pytest.mark.parametrize(
    ("operation", "field"),
    [
        ({"type": "stamp", "text": "x", "opacity": 3}, "operations[0].opacity"),
        ({"type": "spin"}, "operations[0].type"),
        ({"type": "bates", "digits": "six"}, "operations[0].digits"),
        (
            {"type": "rotate", "angle": 90, "pages": [{"minPage": 1, "maxPage": 9}]},
            "transformationDetails[0].operations[0].pages[0].maxPage",
        ),
    ],
)
def test_a_bad_operation_is_a_400_naming_its_field(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    operation: dict[str, Any],
    field: str,
) -> None:
    doc = uploaded(make_pdf(2))
    body = order_body([element(doc)])
    if field.startswith("transformationDetails"):
        body["transformationDetails"][0]["operations"] = [operation]
    else:
        body["operations"] = [operation]
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()


def test_operations_apply_to_a_converted_word_file(
    run_order: Run, converted: Callable[..., str]
) -> None:
    from docx import Document as Docx

    word = Docx()
    word.add_paragraph("Quarterly figures of the northern region")
    buffer = io.BytesIO()
    word.save(buffer)
    doc = converted(buffer.getvalue())
    body = order_body([element(doc)])
    body["operations"] = [
        {"type": "pageNumbers", "prefix": "Page ", "position": "bottom"}
    ]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    text = pdftotext_pages(_output(order))[0]
    assert "Quarterly figures" in text and "Page 1" in text
    qpdf_check(_output(order))
