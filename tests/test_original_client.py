"""A client written for the original server, unchanged: every call below is made
the way the original's docs show it (Uxopian/uxodocs: reference/rest-api/
broker-api.md and development/apis/rendition/rest/**) — same paths, parameters,
headers and bodies — and the answers are checked for the shapes and contents that
client reads."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest
from django.test import Client
from django.utils import timezone

from jobs.models import WorkerHeartbeat
from tests.conftest import make_pdf_bytes
from tests.documents.signing import self_signed, sign

JSON = "application/json"
OCTETS = "application/octet-stream"


@pytest.fixture
def original_client() -> Any:
    # The docs' curl examples send `accept: application/json` unless they say else.
    return Client(HTTP_ACCEPT=JSON)


@pytest.fixture
def document(original_client: Any, tmp_path: Path) -> str:
    """`curl -X POST http://localhost:8761/documents -H "Content-Type:
    application/octet-stream" --data-binary @my-document.pdf`: three pages, an
    outline, a named destination, a signature, a sticky note."""
    doc = pymupdf.open("pdf", make_pdf_bytes(["hello world", "second", "hello again"]))
    doc[0].add_text_annot((300, 300), "Please make reference to the document.").update()
    doc.set_toc([[1, "Chapter 1", 1], [2, "Section 1.1", 3]])
    pdf = pikepdf.open(io.BytesIO(doc.tobytes()))
    pdf.Root.Names = pikepdf.Dictionary(
        Dests=pikepdf.Dictionary(
            Names=pikepdf.Array(
                [
                    pikepdf.String("section1"),
                    pikepdf.Array([pdf.pages[1].obj, pikepdf.Name.XYZ, 0, 842, 0]),
                ]
            )
        )
    )
    out = io.BytesIO()
    pdf.save(out)
    signed = sign(out.getvalue(), self_signed(tmp_path))
    response = original_client.post("/documents", data=signed, content_type=OCTETS)
    assert response.status_code == 200
    body = response.json()
    assert list(body) == ["id"] and body["id"].startswith("b64_")
    return str(body["id"])


def test_document_metadata_check_layout_and_files(
    original_client: Any, document: str
) -> None:
    base = f"/documents/{document}"
    meta = original_client.get(base).json()
    for field in (
        "documentId",
        "mimeType",
        "format",
        "renderedMimeType",
        "renderedFormat",
        "conversionOrderIds",
        "documentTitle",
        "documentMetadata",
        "urlParameters",
    ):
        assert field in meta, field
    assert meta["documentId"] == {"id": document}
    assert isinstance(meta["conversionOrderIds"], dict)
    check = original_client.get(base + "/check")
    assert check.status_code == 200 and check.content == b""
    layout = original_client.get(base + "/layout").json()
    assert len(layout["pageDimensionsList"]) == 3
    pdf = original_client.get(base + "/file?format=pdf")
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    # curl ... -H "Range: bytes=0-1023", and the dev page's bytes=0-10
    for header, size in (("bytes=0-1023", 1024), ("bytes=0-10", 11)):
        chunk = original_client.get(base + "/file/chunk", HTTP_RANGE=header)
        assert chunk.status_code == 206
        assert len(b"".join(chunk.streaming_content)) == size


def test_pages_text_and_images(original_client: Any, document: str) -> None:
    base = f"/documents/{document}"
    contents = original_client.get(base + "/pages/0/text/position").json()
    assert contents["pageNumber"] == 0
    assert contents["positionTextList"][0]["text"] == "hello world"
    assert contents["imageHyperlinkPositionList"] == []
    found = original_client.get(base + "/pages/0/text?searchText=hello").json()
    assert found["searchResults"][0]["positionText"]["text"] == "hello"
    pages = original_client.get(base + "/pages?searchText=hello").json()
    assert pages == {
        "uuid": {"id": document},
        "searchText": "hello",
        "pageList": [0, 2],
        "searchStatus": "COMPLETED",
        "lastPageSearched": 2,
    }
    multi = original_client.get(base + "/search?searchText=hello&fromPage=0").json()
    assert multi["searchStatus"] == "COMPLETED" and multi["lastPageSearched"] == 2
    assert sorted(multi["pagesResults"]) == ["0", "2"]
    assert multi["pagesResults"]["2"][0]["positionText"]["text"] == "hello"
    ranged = original_client.get(
        base + "/search?searchText=hello&fromPage=1&toPage=-1"
    ).json()
    assert list(ranged["pagesResults"]) == ["2"]
    image = original_client.get(base + "/pages/0/image?pageImageDescription=IM_800_0")
    assert image["Content-Type"] == "image/png"
    assert pymupdf.Pixmap(b"".join(image.streaming_content)).width == 800
    filtered = original_client.get(
        base + "/pages/2/image?pageImageDescription=IM_200_90_FILTERS~C~35~B~-100~I~50"
    )
    assert filtered.status_code == 200
    assert pymupdf.Pixmap(b"".join(filtered.streaming_content)).width == 200


def test_structure_signatures_printable_and_annotations(
    original_client: Any, document: str
) -> None:
    base = f"/documents/{document}"
    marks = original_client.get(base + "/bookmarks").json()["bookmarks"]
    assert marks[0]["title"] == "Chapter 1" and marks[0]["page"] == 0
    assert marks[0]["children"][0]["title"] == "Section 1.1"
    assert marks[0]["children"][0]["page"] == 2
    assert {"textPosition", "nodeOpen", "namedDestination", "fileName"} <= set(marks[0])
    dests = original_client.get(base + "/destinations").json()
    assert dests == {
        "documentId": {"id": document},
        "namedDestinations": [
            {"name": "section1", "page": 1, "position": {"x": 0.0, "y": 0.0}}
        ],
    }
    signatures = original_client.get(base + "/signatures").json()
    [signature] = signatures["signatures"]
    assert "John Doe" in signature["signer"] and signature["wrongIntegrity"] is False
    assert signatures["integrity"] is True and signatures["wronglySigned"] is False
    # curl ... -H 'accept: application/pdf'
    printable = original_client.get(base + "/printable", HTTP_ACCEPT="application/pdf")
    with pikepdf.open(io.BytesIO(b"".join(printable.streaming_content))) as pdf:
        assert pdf.Root.OpenAction.S == pikepdf.Name.JavaScript
    # curl ... -H 'accept: application/octet-stream'
    xfdf = original_client.get(base + "/file/annotations", HTTP_ACCEPT=OCTETS)
    root = ET.fromstring(xfdf.content)
    [note] = list(root[0])
    assert note.tag == "{http://ns.adobe.com/xfdf/}text" and note.get("page") == "0"
    # POST /annotations/conversion?sourceType=XFDF&targetType=FDF&documentId=...
    fdf = original_client.post(
        f"/annotations/conversion?sourceType=XFDF&targetType=FDF&documentId={document}",
        data=xfdf.content,
        content_type=OCTETS,
        HTTP_ACCEPT=OCTETS,
    )
    assert fdf.status_code == 200 and fdf.content.startswith(b"%FDF")
    assert b"/Text" in fdf.content


def test_the_annotation_store(original_client: Any, document: str) -> None:
    url = f"/annotation?documentId={document}"
    created = original_client.put(
        url,
        data=json.dumps(
            {
                "annotations": [
                    {
                        "id": {"id": "annot-001"},
                        "type": "Highlight",
                        "page": 0,
                        "position": {"x": 100, "y": 200, "w": 150, "h": 20},
                    }
                ]
            }
        ),
        content_type=JSON,
    )
    assert created.status_code == 200
    listed = original_client.get(url).json()["annotations"]
    assert [(a["id"], a["type"], a["documentId"]) for a in listed] == [
        ({"id": "annot-001"}, "Highlight", {"id": document})
    ]
    updated = original_client.post(
        url,
        data='{"annotations": [{"id": {"id": "annot-001"}, "type": "Highlight", '
        '"page": 0, "position": {"x": 110, "y": 200, "w": 150, "h": 20}}]}',
        content_type=JSON,
    )
    assert updated.status_code == 200
    assert original_client.get(url).json()["annotations"][0]["position"]["x"] == 110
    deleted = original_client.delete(
        url, data='{"annotations": [{"id": {"id": "annot-001"}}]}', content_type=JSON
    )
    assert deleted.status_code == 200
    assert original_client.get(url).json() == {"annotations": []}
    policy = original_client.get(f"/annotation/policy?documentId={document}").json()
    for field in (
        "canCreateAnnotations",
        "textAnnotationsSupportHtml",
        "textAnnotationsSupportReply",
        "textAnnotationsSupportStatus",
        "textAnnotationsCommentSupportReply",
        "annotationsSupportSecurity",
        "availableSecurityLevels",
        "annotationTemplateCatalog",
        "annotationCreationRuleCatalog",
        "availableRedactReasons",
        "defaultRedactReasons",
    ):
        assert field in policy, field
    assert policy["availableRedactReasons"][0]["symbolicName"] == "(b)(1)"


def test_layout_registration_transformations_and_eviction(
    original_client: Any,
    document: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # curl -X POST .../documents/layout -H "Content-Type: application/json"
    #   -d '{"documentId": {"id": "my-doc-id"}, "pageCount": 2, "pages": [...]}'
    registered = original_client.post(
        "/documents/layout",
        data='{"documentId": {"id": "my-doc-id"}, "pageCount": 2, "pages": '
        '[{"width": 595, "height": 842}, {"width": 595, "height": 842}]}',
        content_type=JSON,
    )
    assert registered.status_code == 200
    layout = original_client.get("/documents/my-doc-id/layout").json()
    assert len(layout["pageDimensionsList"]) == 2
    # The older docs: upload bytes and get the layout back.
    uploaded = original_client.post(
        "/documents/layout", data=make_pdf_bytes(1), content_type=OCTETS
    )
    assert uploaded.json()["pageDimensionsList"][0]["width"] == 595

    with django_capture_on_commit_callbacks(execute=True):
        original_client.post(
            "/transformations",
            data=json.dumps(
                {
                    "format": "pdf",
                    "transformationDetails": [
                        {
                            "transformationElements": [
                                {
                                    "documentId": {"id": document},
                                    "pagesSelectionList": [
                                        {"minPage": 1, "maxPage": 2}
                                    ],
                                }
                            ]
                        }
                    ],
                }
            ),
            content_type=JSON,
        )
    orders = original_client.get("/transformations").json()
    assert isinstance(orders, list) and orders[0]["currentState"] == "PROCESSED"
    assert "transformationResultDocumentID" in orders[0]
    assert original_client.delete("/transformations").status_code == 200
    assert original_client.get("/transformations").json() == []
    assert original_client.delete(f"/documents/{document}").status_code == 200
    assert original_client.get(f"/documents/{document}/check").status_code == 404


def test_comparisons_with_the_originals_colours(
    original_client: Any,
    uploaded: Callable[..., str],
    django_capture_on_commit_callbacks: Any,
) -> None:
    left = uploaded(make_pdf_bytes(["the quick brown fox"]))
    right = uploaded(make_pdf_bytes(["the quick brown cat"]))
    with django_capture_on_commit_callbacks(execute=True):
        created = original_client.post(
            "/comparisons",
            data=json.dumps(
                {
                    "leftDocumentId": left,
                    "rightDocumentId": right,
                    "fuzz": "3",
                    "highlightColor": "ff0000",
                    "lowlightColor": "null",
                }
            ),
            content_type=JSON,
        )
    order_id = created.json()["comparisonOrderId"]["id"]
    order = original_client.get(f"/comparisons/{order_id}?timeoutMs=6000").json()
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    unknown = original_client.get(
        f"/difference?leftDocumentId={left}&rightDocumentId=b64_bm9wZQ=="
    )
    assert unknown.status_code == 404


def test_operations_endpoints(original_client: Any) -> None:
    WorkerHeartbeat.objects.create(name="w", seen_at=timezone.now())
    ready = original_client.get("/health/readiness")
    assert ready.status_code == 200 and ready.content == b""
    records = original_client.get("/health/records/raw").json()
    assert records["serviceStates"]["worker"]["serviceStatus"] == "UP"
    assert original_client.get("/health/records")["Content-Type"].startswith(
        "text/html"
    )
    versions = original_client.get("/version").json()
    assert {"LibreOffice", "PyMuPDF", "MuPDF", "qpdf", "Tesseract"} <= set(versions)
    assert original_client.get("/swagger-ui/index.html").status_code == 200
    assert "paths" in original_client.get("/v3/api-docs").json()


# The original's QA suite (its TransformationTest) sends this body for an order
# with FDF annotations: one output as an object, not a list, and annotations of
# the original's model (ids, creation dates, flags, rich text) on pages 0 to 9.
QA_FDF_ORDER = {
    "annotations": {
        "annotations": [
            {
                "type": "com.arondor.viewer.annotation.api.SquareElemType",
                "id": "21ea93fe-ca56-4b25-9a6b-e8091d45fd35",
                "creationDate": 1667828859995,
                "flags": {},
                "documentId": {"id": "string"},
                "page": 0,
                "position": {"x": 10.0, "y": 10.0, "w": 100.0, "h": 100.0},
                "interiorColor": {"r": 0, "g": 255, "b": 0},
            },
            {
                "type": "com.arondor.viewer.annotation.api.FreetextElemType",
                "id": "21ea93fe-ca56-4b25-9a6b-e8091d45fd36",
                "creationDate": 1667828859995,
                "flags": {},
                "color": {"r": 0, "g": 255, "b": 255},
                "documentId": {"id": "string"},
                "page": 5,
                "position": {"x": 110.0, "y": 110.0, "w": 100.0, "h": 20.0},
                "opacity": 0.7,
                "contentsRichtext": {
                    "type": "com.arondor.viewer.annotation.api.RichtextElemType",
                    "value": '<html xmlns="http://www.w3.org/1999/xhtml"><body><span '
                    'style="font-size:16px">This is a freetext</span></body></html>',
                },
                "contents": "This is a freetext",
                "width": 2.0,
                "defaultappearance": "0 R 1 0 0",
            },
            {
                "type": "com.arondor.viewer.annotation.api.TextElemType",
                "id": "21ea93fe-ca56-4b25-9a6b-e8091d45fd37",
                "flags": {},
                "color": {"r": 250, "g": 250, "b": 0},
                "documentId": {"id": "string"},
                "page": 9,
                "position": {"x": 350.0, "y": 200.0, "w": 160.0, "h": 50.0},
                "creator": "Creator Name",
                "creationDate": 1667828859995,
                "opacity": 1.0,
                "contents": "This a sticky note",
                "icon": "Note",
            },
        ]
    },
    "format": "pdf-fdf",
    "transformationDetails": {
        "documentTitle": "out.pdf",
        "transformationElements": [
            {
                "documentId": "string",
                "pagesSelectionList": [{"maxPage": 19, "minPage": 1}],
            }
        ],
    },
}


def test_the_qa_suites_fdf_order_with_one_output_as_an_object(
    original_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    uploaded = original_client.post(
        "/documents", data=make_pdf_bytes(20), content_type=OCTETS
    )
    doc_id = uploaded.json()["id"]
    body = json.loads(json.dumps(QA_FDF_ORDER).replace('"string"', json.dumps(doc_id)))
    with django_capture_on_commit_callbacks(execute=True):
        created = original_client.post(
            "/transformations", data=json.dumps(body), content_type=JSON
        )
    assert created.status_code == 200, created.content
    order_id = created.json()["transformationOrderId"]["id"]
    order = original_client.get(f"/transformations/{order_id}").json()
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    assert order["transformationDetails"][0]["documentTitle"] == "out.pdf"
    result = order["transformationResultDocumentID"]["id"]
    pdf = original_client.get(f"/documents/{result}/file?format=pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"].startswith("application/pdf")
    with pikepdf.open(io.BytesIO(b"".join(pdf.streaming_content))) as out:
        assert len(out.pages) == 19
        kinds = {
            n: [str(a.Subtype) for a in out.pages[n].get("/Annots", [])]
            for n in (0, 5, 9)
        }
    # A sticky note carries its pop-up, as readers expect.
    assert kinds == {0: ["/Square"], 5: ["/FreeText"], 9: ["/Text", "/Popup"]}
