"""Annotations and redaction through the whole API: search → order → download."""

from __future__ import annotations

import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest
from django.db import connection

from tests.conftest import doc_url
from tests.orders.helpers import (
    element,
    file_path,
    order_body,
    pdftotext_pages,
)

PREFIX = "com.vendor.viewer.annotation.api."


@pytest.fixture
def run(run_order: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Run an order that must succeed."""

    def _run(body: dict[str, Any]) -> dict[str, Any]:
        order = run_order(body)
        assert order["currentState"] == "PROCESSED", order["errorMessage"]
        return order

    return _run


def secret_letter(rotate: int = 0) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Dear reader, the line above stays.", fontsize=12)
    page.insert_text(
        (72, 116), "Alice Smith lives at Secretstreet 42 in Townville.", fontsize=12
    )
    page.insert_text((72, 132), "The line below stays as well.", fontsize=12)
    doc.set_metadata({"title": "Letter about Secretstreet", "author": "Bob"})
    doc.set_toc([[1, "Secretstreet section", 1], [1, "Other section", 1]])
    if rotate:
        page.set_rotation(rotate)
    return doc.tobytes()


def search(client: Any, doc_id: str, text: str, page: int = 0) -> list[dict[str, Any]]:
    response = client.get(doc_url(doc_id, f"/pages/{page}/text", searchText=text))
    return [r["positionText"] for r in response.json()["searchResults"]]


def redact_text(
    doc_id: str, page: int, coords: list[dict[str, float]], ident: str = "r1"
) -> dict[str, Any]:
    return {
        "type": PREFIX + "RedactTextElemType",
        "documentId": {"id": doc_id},
        "page": page,
        "coords": coords,
        "id": {"id": ident},
    }


def all_stream_bytes(path: Path) -> bytes:
    """Every stream decompressed plus every string, as one blob to grep."""
    chunks = []
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream):
                try:
                    chunks.append(obj.read_bytes())
                except pikepdf.PdfError:
                    chunks.append(obj.read_raw_bytes())
            chunks.append(repr(obj).encode("utf-8", "replace"))
        chunks.append(repr(pdf.docinfo).encode())
    return b"\n".join(chunks)


@pytest.mark.parametrize("rotate", [0, 90])
def test_the_interface_redaction_flow_removes_the_word_and_keeps_its_neighbours(
    run: Callable[..., dict[str, Any]],
    client: Any,
    uploaded: Callable[..., str],
    rotate: int,
) -> None:
    doc_id = uploaded(secret_letter(rotate))
    (hit,) = search(client, doc_id, "secretstreet")
    order = run(
        order_body(
            [element(doc_id)], annotations=[redact_text(doc_id, 0, [hit["position"]])]
        )
    )
    assert order["redactionVerified"] is True
    downloaded = client.get(
        doc_url(order["transformationResultDocumentID"]["id"], "/file", format="pdf")
    )
    out = file_path(order["transformationResultDocumentID"]["id"])
    assert b"".join(downloaded.streaming_content) == out.read_bytes()
    (text,) = pdftotext_pages(out)
    assert "Secretstreet" not in text
    for kept in (
        "Alice Smith lives at",
        "42 in Townville.",
        "the line above stays.",
        "The line below stays as well.",
    ):
        assert kept in text, text
    blob = all_stream_bytes(out)
    assert b"Secretstreet" not in blob and b"ecretstree" not in blob
    with pikepdf.open(out) as pdf:
        assert "Secretstreet" not in str(pdf.docinfo.get("/Title", ""))
        with pdf.open_outline() as outline:
            assert all("Secretstreet" not in item.title for item in outline.root)
    assert out.read_bytes().count(b"%%EOF") == 1, (
        "a full rewrite, not an incremental save"
    )


def test_zone_redaction_in_pdf_fdf_is_true_redaction_too(
    run: Callable[..., dict[str, Any]], client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(secret_letter())
    (hit,) = search(client, doc_id, "Secretstreet")
    zone = {
        "type": PREFIX + "RedactElemType",
        "documentId": {"id": doc_id},
        "page": 0,
        "position": hit["position"],
        "interiorColor": {"r": 0, "g": 0, "b": 255},
        "id": {"id": "zone-1"},
    }
    order = run(order_body([element(doc_id)], fmt="pdf-fdf", annotations=[zone]))
    assert order["redactionVerified"] is True
    (text,) = pdftotext_pages(file_path(order["transformationResultDocumentID"]["id"]))
    assert "Secretstreet" not in text and "Alice Smith" in text


def _text_of(path: Path) -> str:
    """pdftotext of an output: a PDF, or every PDF of a zip output."""
    if not zipfile.is_zipfile(path):
        return "".join(pdftotext_pages(path))
    with zipfile.ZipFile(path) as archive, tempfile.TemporaryDirectory() as folder:
        archive.extractall(folder)
        return "".join(
            "".join(pdftotext_pages(Path(folder) / n)) for n in archive.namelist()
        )


@pytest.mark.parametrize("fmt", ["zip", "pdf"])
def test_redaction_in_one_of_several_outputs_is_verified_for_the_order(
    run: Callable[..., dict[str, Any]],
    client: Any,
    uploaded: Callable[..., str],
    fmt: str,
) -> None:
    secret, plain = uploaded(secret_letter()), uploaded(secret_letter())
    (hit,) = search(client, secret, "Secretstreet")
    order = run(
        order_body(
            [element(plain)],
            [element(secret)],
            fmt=fmt,
            annotations=[redact_text(secret, 0, [hit["position"]])],
        )
    )
    assert order["redactionVerified"] is True
    texts = [
        _text_of(file_path(child["id"]))
        for child in order["transformationResultDocumentIDs"]
    ]
    assert "Secretstreet" in texts[0] and "Secretstreet" not in texts[1]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT redaction_verified FROM transformation_order_report "
            "WHERE order_id = %s",
            [order["transformationOrderId"]["id"]],
        )
        assert cursor.fetchall() == [(True,)], "the analysts' view says it too"


def test_square_in_pdf_fdf_is_a_live_annotation_and_downloads_as_fdf(
    run: Callable[..., dict[str, Any]],
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    doc_id = uploaded(make_pdf(2))
    square = {
        "type": "com.example.viewer.annotation.api.SquareElemType",
        "documentId": {"id": doc_id},
        "page": 1,
        "position": {"x": 100, "y": 200, "w": 50, "h": 30},
        "interiorColor": {"r": 255, "g": 0, "b": 0},
        "opacity": 0.5,
        "id": "sq-1",
        "creationDate": 1700000000000,
        "flags": {},
    }
    order = run(
        order_body(
            [element(doc_id, (2, 2), (1, 2))], fmt="pdf-fdf", annotations=[square]
        )
    )
    assert order["redactionVerified"] is None, "nothing was redacted"
    echoed = order["annotations"]["annotations"][0]
    assert echoed["type"] == square["type"] and echoed["id"] == "sq-1"
    assert echoed["documentId"] == {"id": doc_id}
    assert echoed["startTime"] == -1.0 and echoed["endTime"] == -1.0
    assert echoed["contents"] is None and echoed["popup"] is None
    result_id = order["transformationResultDocumentID"]["id"]
    with pikepdf.open(file_path(result_id)) as pdf:
        per_page = [
            [a for a in page.get("/Annots", []) if a.get("/Subtype") == "/Square"]
            for page in pdf.pages
        ]
        assert [len(p) for p in per_page] == [1, 0, 1], (
            "follows source page 2 to both copies"
        )
        annot = per_page[0][0]
        assert str(annot.NM) == "sq-1"
        x0, y0, x1, y1 = (float(v) for v in annot.Rect)
        assert (x0, 842 - y1) == pytest.approx((100, 200), abs=2)
        assert [float(v) for v in annot.IC] == [1, 0, 0]
    fdf = client.get(doc_url(result_id, "/file", format="fdf"))
    assert fdf.status_code == 200
    data = b"".join(fdf.streaming_content)
    assert data.startswith(b"%FDF-1.2") and b"/Square" in data
    assert b"(sq-1)" in data or b"<" + b"sq-1".hex().encode() + b">" in data.lower()


def test_burnt_square_is_in_the_pixels_and_leaves_no_annotation(
    run: Callable[..., dict[str, Any]],
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
) -> None:
    doc_id = uploaded(make_pdf(1))
    square = {
        "type": PREFIX + "SquareElemType",
        "documentId": {"id": doc_id},
        "page": 0,
        "position": {"x": 300, "y": 400, "w": 100, "h": 100},
        "interiorColor": {"r": 0, "g": 0, "b": 255},
        "opacity": 1.0,
    }
    order = run(order_body([element(doc_id)], annotations=[square]))
    out = pymupdf.open(file_path(order["transformationResultDocumentID"]["id"]))
    assert list(out[0].annots()) == []
    pix = out[0].get_pixmap(dpi=72)
    assert pix.pixel(350, 450) == (0, 0, 255)
    assert pix.pixel(250, 450) == (255, 255, 255)


@pytest.mark.parametrize(
    ("annotation", "field"),
    [
        (
            {
                "type": PREFIX + "CircleElemType",
                "page": 0,
                "position": {"x": 1, "y": 1, "w": 1, "h": 1},
            },
            "annotations.annotations[0].type",
        ),
        (
            {
                "type": PREFIX + "SquareElemType",
                "page": 7,
                "position": {"x": 1, "y": 1, "w": 1, "h": 1},
            },
            "annotations.annotations[0].page",
        ),
        (
            {"type": PREFIX + "RedactTextElemType", "page": 0},
            "annotations.annotations[0].coords",
        ),
    ],
)
def test_invalid_annotations_are_400_naming_the_field(
    client: Any,
    uploaded: Callable[..., str],
    make_pdf: Callable[..., bytes],
    annotation: dict[str, Any],
    field: str,
) -> None:
    doc_id = uploaded(make_pdf(2))
    body = order_body(
        [element(doc_id)], annotations=[{"documentId": doc_id, **annotation}]
    )
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()


def test_annotation_on_a_document_outside_the_order_is_400(
    client: Any, uploaded: Callable[..., str], make_pdf: Callable[..., bytes]
) -> None:
    inside, outside = uploaded(make_pdf(1)), uploaded(make_pdf(1))
    body = order_body(
        [element(inside)],
        annotations=[
            {
                "type": PREFIX + "SquareElemType",
                "documentId": outside,
                "page": 0,
                "position": {"x": 1, "y": 1, "w": 1, "h": 1},
            }
        ],
    )
    response = client.post(
        "/transformations", data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "annotations.annotations[0].documentId" in response.json()["errors"]


CORPUS_TEXT_DOCS = [
    "tracemonkey.pdf",
    "three_columns.pdf",
    "standard_fonts.pdf",
    "rotation.pdf",
    "160F-2019.pdf",
    "cjhebrew.pdf",
    "project-history.ja.pdf",
    "12s0324.pdf",
]


@pytest.mark.corpus
@pytest.mark.parametrize("name", CORPUS_TEXT_DOCS)
def test_corpus_redaction_of_two_distinctive_words_found_by_search(
    run: Callable[..., dict[str, Any]],
    client: Any,
    uploaded: Callable[..., str],
    corpus: Path,
    facts: dict[str, Any],
    name: str,
) -> None:
    words = [
        (group["page"] - 1, w["word"])
        for group in facts[name]["distinctive_words"]
        for w in group["words"]
        if w.get("script", "LATIN") in ("LATIN", "CJK")
    ]
    assert len(words) >= 2, name
    doc_id = uploaded((corpus / name).read_bytes())
    count = 2 if len(words) >= 3 else 1  # always leave a word that must survive
    targets, kept = words[:count], words[count:]
    annotations = []
    for n, (page, word) in enumerate(targets):
        hits = search(client, doc_id, word, page)
        assert hits, f"{word!r} not found on page {page} of {name}"
        annotations.append(
            redact_text(doc_id, page, [h["position"] for h in hits], f"r{n}")
        )
    order = run(order_body([element(doc_id)], annotations=annotations))
    out = file_path(order["transformationResultDocumentID"]["id"])
    text = subprocess.run(
        ["pdftotext", str(out), "-"], capture_output=True, text=True, check=True
    ).stdout
    folded = " ".join(text.split()).casefold()
    for _, word in targets:
        assert word.casefold() not in folded, f"{word!r} survived redaction in {name}"
    survivors = [word for _, word in kept if word.casefold() in folded]
    assert len(survivors) >= len(kept) - 1, (name, kept, survivors)
