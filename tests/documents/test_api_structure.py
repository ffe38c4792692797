"""Bookmarks, named destinations, signatures and printable copies over HTTP."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from tests.conftest import doc_url, make_pdf_bytes
from tests.documents.signing import (
    flip_signed_byte,
    replace_page_content,
    self_signed,
    sign,
)
from tests.documents.test_api_documents import png_bytes


def xyz(pdf: pikepdf.Pdf, page: int, left: float, top: float) -> pikepdf.Array:
    return pikepdf.Array([pdf.pages[page].obj, pikepdf.Name.XYZ, left, top, 0])


@pytest.fixture
def navigable() -> bytes:
    """Three pages (the third turned 90°): a two-level outline, one item closed,
    one through a named destination; named destinations in the name tree."""
    pdf = pikepdf.open(io.BytesIO(make_pdf_bytes(["Intro", "Methods", "Results"])))
    pdf.pages[2].obj.Rotate = 90
    pdf.Root.Names = pikepdf.Dictionary(
        Dests=pikepdf.Dictionary(
            Names=pikepdf.Array(
                [
                    pikepdf.String("methods"),
                    xyz(pdf, 1, 72, 742),
                    pikepdf.String("results"),
                    pikepdf.Dictionary(D=xyz(pdf, 2, 100, 700)),
                ]
            )
        )
    )
    with pdf.open_outline() as outline:
        intro = pikepdf.OutlineItem("Chapter 1: Intro")
        intro.destination = xyz(pdf, 0, 72, 800)
        section = pikepdf.OutlineItem("1.1 Café")
        section.destination = xyz(pdf, 0, 72, 600)
        intro.children.append(section)
        methods = pikepdf.OutlineItem("Chapter 2", destination=None)
        methods.destination = pikepdf.String("methods")
        closed = pikepdf.OutlineItem("Chapter 3")
        closed.destination = xyz(pdf, 2, 100, 700)
        closed.children.append(pikepdf.OutlineItem("3.1", 2))
        closed.is_closed = True
        outline.root.extend([intro, methods, closed])
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_bookmarks_are_the_outline_tree_in_the_originals_fields(
    client: Any, uploaded: Callable[..., str], navigable: bytes
) -> None:
    doc_id = uploaded(navigable)
    response = client.get(doc_url(doc_id, "/bookmarks"))
    assert response.status_code == 200
    marks = response.json()["bookmarks"]
    assert [m["title"] for m in marks] == ["Chapter 1: Intro", "Chapter 2", "Chapter 3"]
    intro, methods, results = marks
    assert set(intro) >= {
        "title",
        "page",
        "textPosition",
        "nodeOpen",
        "children",
        "namedDestination",
        "fileName",
        "shouldOpenInNewWindow",
    }
    assert (intro["page"], intro["textPosition"], intro["nodeOpen"]) == (0, 42, True)
    assert [c["title"] for c in intro["children"]] == ["1.1 Café"]
    assert intro["children"][0]["textPosition"] == 842 - 600
    assert intro["children"][0]["children"] == []
    assert methods["namedDestination"] == "methods" and methods["page"] == 1
    assert methods["textPosition"] == 100
    assert results["nodeOpen"] is False and results["page"] == 2
    assert [c["title"] for c in results["children"]] == ["3.1"]
    # Page 3 is turned 90°: PDF point (100, 700) is 700 from the left of the
    # displayed page and 100 from its top.
    assert results["position"] == {"x": 842 - 142, "y": 100}
    assert intro["fileName"] is None and intro["shouldOpenInNewWindow"] is False


def test_a_document_without_outline_has_no_bookmarks(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(make_pdf_bytes(2))
    assert client.get(doc_url(doc_id, "/bookmarks")).json() == {"bookmarks": []}
    assert client.get(doc_url(doc_id, "/destinations")).json() == {
        "documentId": {"id": doc_id},
        "namedDestinations": [],
    }


def test_named_destinations_give_page_and_displayed_position(
    client: Any, uploaded: Callable[..., str], navigable: bytes
) -> None:
    doc_id = uploaded(navigable)
    body = client.get(doc_url(doc_id, "/destinations")).json()
    assert body["documentId"] == {"id": doc_id}
    assert body["namedDestinations"] == [
        {"name": "methods", "page": 1, "position": {"x": 72, "y": 100}},
        {"name": "results", "page": 2, "position": {"x": 700, "y": 100}},
    ]
    # The position is where the page's text is: "Methods" was drawn at y=100.
    line = client.get(doc_url(doc_id, "/pages/1/text/position")).json()
    box = line["positionTextList"][0]["position"]
    assert box["y"] < 100 < box["y"] + box["h"] + 1


def test_bookmarks_of_an_unknown_document_are_404(client: Any) -> None:
    for suffix in ("/bookmarks", "/destinations", "/signatures", "/printable"):
        response = client.get(doc_url("nope", suffix))
        assert response.status_code == 404, suffix
        assert response["Content-Type"] == "application/problem+json"


@pytest.fixture
def signer(tmp_path: Path) -> Any:
    return self_signed(tmp_path)


def test_an_unsigned_document_has_no_signatures(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(make_pdf_bytes(1))
    assert client.get(doc_url(doc_id, "/signatures")).json() == {
        "signatures": [],
        "wronglySigned": False,
        "integrity": True,
    }


def test_a_signed_document_names_its_signer_and_verifies(
    client: Any, uploaded: Callable[..., str], signer: Any
) -> None:
    signed = sign(make_pdf_bytes(["Contract"]), signer)
    body = client.get(doc_url(uploaded(signed), "/signatures")).json()
    assert body["wronglySigned"] is False and body["integrity"] is True
    [signature] = body["signatures"]
    assert signature["name"] == "Signature1"
    assert "John Doe" in signature["signer"]
    assert (signature["reason"], signature["location"]) == ("Approval", "Paris")
    assert signature["date"].startswith("20")
    assert signature["wrongIntegrity"] is False
    assert signature["signatureValid"] and signature["documentIntact"]
    assert signature["coversWholeDocument"] is True
    # Self-signed: the signature holds, but nobody vouches for the certificate.
    assert signature["unknownCertificate"] is True
    assert signature["signatureException"] is False


def test_a_tampered_signed_document_does_not_verify(
    client: Any, uploaded: Callable[..., str], signer: Any
) -> None:
    signed = sign(make_pdf_bytes(["Contract"]), signer)
    body = client.get(doc_url(uploaded(flip_signed_byte(signed)), "/signatures"))
    body = body.json()
    [signature] = body["signatures"]
    assert body["integrity"] is False
    assert signature["wrongIntegrity"] is True
    assert signature["documentIntact"] is False


def test_content_changed_after_signing_breaks_the_documents_integrity(
    client: Any, uploaded: Callable[..., str], signer: Any
) -> None:
    signed = sign(make_pdf_bytes(["Pay 100"]), signer)
    forged = replace_page_content(signed, b"BT /F1 24 Tf 72 300 Td (Pay 999) Tj ET")
    body = client.get(doc_url(uploaded(forged), "/signatures")).json()
    [signature] = body["signatures"]
    assert signature["signatureValid"] is True  # the signed revision itself holds
    assert signature["coversWholeDocument"] is False
    assert signature["wrongIntegrity"] is True and body["integrity"] is False


def test_printable_copy_opens_the_print_dialog_and_keeps_the_pages(
    client: Any, uploaded: Callable[..., str], tmp_path: Path, settings: Any
) -> None:
    doc_id = uploaded(make_pdf_bytes(["first page", "second page"]))
    response = client.get(doc_url(doc_id, "/printable"), HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        action = pdf.Root.OpenAction
        assert action.S == pikepdf.Name.JavaScript
        assert "this.print(" in str(action.JS)
        assert len(pdf.pages) == 2
    path = tmp_path / "printable.pdf"
    path.write_bytes(data)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "first page" in text and "second page" in text
    cached = list((Path(settings.DATA_DIR) / "cache" / "printable").iterdir())
    assert len(cached) == 1
    again = client.get(doc_url(doc_id, "/printable"))
    assert b"".join(again.streaming_content) == data


def test_an_image_upload_is_printable_through_its_rendition(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded(png_bytes())
    response = client.get(doc_url(doc_id, "/printable"))
    assert response.status_code == 200
    with pikepdf.open(io.BytesIO(b"".join(response.streaming_content))) as pdf:
        assert "/OpenAction" in pdf.Root and len(pdf.pages) == 1
