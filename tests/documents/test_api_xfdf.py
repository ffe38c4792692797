"""Annotations as XFDF: GET /documents/<id>/file/annotations and
POST /annotations/conversion between FDF and XFDF."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pymupdf
import pytest

from tests.conftest import doc_url, make_pdf_bytes

NS = {"x": "http://ns.adobe.com/xfdf/"}


@pytest.fixture
def annotated() -> bytes:
    """Two pages; page 1 has a square with a comment, a sticky note and a line."""
    doc = pymupdf.open("pdf", make_pdf_bytes(2))
    page = doc[1]
    square = page.add_rect_annot(pymupdf.Rect(100, 100, 200, 150))
    square.set_info(title="alice", content="check this", subject="Review")
    square.set_colors(stroke=(1, 0, 0), fill=(0, 0, 1))
    square.update()
    note = page.add_text_annot((300, 300), "sticky")
    note.update()
    line = page.add_line_annot((50, 500), (200, 520))
    line.update()
    page.insert_link(
        {"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(10, 10, 60, 30), "uri": "x:"}
    )
    data = doc.tobytes()
    doc.close()
    return data


def xfdf_annots(data: bytes) -> list[ET.Element]:
    root = ET.fromstring(data)
    assert root.tag == "{http://ns.adobe.com/xfdf/}xfdf"
    return list(root.find("x:annots", NS) or [])


def test_document_annotations_come_as_xfdf(
    client: Any, uploaded: Callable[..., str], annotated: bytes
) -> None:
    doc_id = uploaded(annotated, documentTitle="reviewed")
    response = client.get(
        doc_url(doc_id, "/file/annotations"), HTTP_ACCEPT="application/octet-stream"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.adobe.xfdf"
    annots = xfdf_annots(response.content)
    assert [a.tag.rpartition("}")[2] for a in annots] == ["square", "text", "line"]
    square, note, line = annots
    assert square.get("page") == "1" and square.get("title") == "alice"
    assert square.get("color") == "#FF0000"
    assert square.get("interior-color") == "#0000FF"
    assert square.get("subject") == "Review"
    assert square.find("x:contents", NS).text == "check this"  # type: ignore[union-attr]
    # rect is in PDF space: PyMuPDF's y=100..150 from the top of an 842 pt page.
    x0, y0, x1, y1 = (float(v) for v in square.get("rect", "").split(","))
    assert (round(x0), round(x1)) == (99, 201)
    assert (round(y0), round(y1)) == (842 - 151, 842 - 99)
    assert note.find("x:contents", NS).text == "sticky"  # type: ignore[union-attr]
    assert line.get("start") == "50,342" and line.get("end") == "200,322"
    target = ET.fromstring(response.content).find("x:f", NS)
    assert target is not None and target.get("href") == "reviewed.pdf"


def test_a_document_without_annotations_has_an_empty_xfdf(
    client: Any, uploaded: Callable[..., str]
) -> None:
    response = client.get(doc_url(uploaded(make_pdf_bytes(1)), "/file/annotations"))
    assert response.status_code == 200 and xfdf_annots(response.content) == []


def convert(client: Any, body: bytes, source: str, target: str, **more: str) -> Any:
    query = urlencode({"sourceType": source, "targetType": target, **more})
    return client.post(
        "/annotations/conversion?" + query,
        data=body,
        content_type="application/octet-stream",
        HTTP_ACCEPT="application/octet-stream",
    )


def test_xfdf_to_fdf_and_back_keeps_the_annotations(
    client: Any, uploaded: Callable[..., str], annotated: bytes
) -> None:
    doc_id = uploaded(annotated)
    xfdf = client.get(doc_url(doc_id, "/file/annotations")).content
    fdf = convert(client, xfdf, "XFDF", "FDF", documentId=doc_id)
    assert fdf.status_code == 200, fdf.content
    assert fdf["Content-Type"] == "application/vnd.fdf"
    assert fdf.content.startswith(b"%FDF-1.2") and b"/Square" in fdf.content
    back = convert(client, fdf.content, "fdf", "xfdf")
    assert back["Content-Type"] == "application/vnd.adobe.xfdf"
    before, after = xfdf_annots(xfdf), xfdf_annots(back.content)
    assert [(a.tag, a.attrib) for a in after] == [(a.tag, a.attrib) for a in before]


def test_the_fdf_download_of_a_pdf_fdf_order_converts_to_xfdf(
    client: Any, uploaded: Callable[..., str], run_order: Callable[..., Any]
) -> None:
    source = uploaded(make_pdf_bytes(1))
    order = run_order(
        {
            "format": "pdf-fdf",
            "transformationDetails": [
                {"transformationElements": [{"documentId": source}]}
            ],
            "annotations": {
                "annotations": [
                    {
                        "type": "com.vendor.viewer.annotation.api.SquareElemType",
                        "documentId": {"id": source},
                        "page": 0,
                        "id": "21ea93fe",
                        "position": {"x": 10, "y": 20, "w": 180, "h": 90},
                        "interiorColor": {"r": 0, "g": 255, "b": 0},
                    }
                ]
            },
        }
    )
    result = order["transformationResultDocumentID"]["id"]
    fdf = b"".join(client.get(doc_url(result, "/file", format="fdf")).streaming_content)
    [square] = xfdf_annots(convert(client, fdf, "FDF", "XFDF").content)
    assert square.get("name") == "21ea93fe" and square.get("page") == "0"
    assert square.get("interior-color") == "#00FF00"


def test_a_pdf_body_converts_its_own_annotations(client: Any, annotated: bytes) -> None:
    response = convert(client, annotated, "XFDF", "XFDF")
    assert len(xfdf_annots(response.content)) == 3


@pytest.mark.parametrize(
    "body, source, target",
    [
        (b"not xml", "XFDF", "FDF"),
        (b"<xfdf/>", "FDF", "XFDF"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><xfdf/>', "XFDF", "FDF"),
        (b"<xfdf><annots><square rect='1,2,3,4'/></annots></xfdf>", "XFDF", "FDF"),
        (b"<xfdf/>", "PNG", "FDF"),
        (b"", "XFDF", "FDF"),
    ],
)
def test_bad_conversions_are_400(
    client: Any, body: bytes, source: str, target: str
) -> None:
    response = convert(client, body, source, target)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"


def test_conversion_with_an_unknown_document_is_404(client: Any) -> None:
    assert (
        convert(client, b"<xfdf/>", "XFDF", "FDF", documentId="nope").status_code == 404
    )
