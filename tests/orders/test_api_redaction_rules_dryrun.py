"""A dry run and the real order agree: the same ids on every call, the same
areas to the thousandth of a point when a document is taken twice and pages
are chosen, and a match the reviewer drops is kept in the output."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pikepdf
import pymupdf
import pytest

from tests.orders.helpers import element, file_path, order_body, pdftotext_pages

RULES = [{"text": "Acme"}, {"preset": "email"}]


def _pages(count: int) -> bytes:
    doc = pymupdf.open()
    for n in range(count):
        page = doc.new_page(width=400, height=300)
        page.insert_text(
            (40, 60 + 10 * n),
            f"Page {n + 1} names Acme and jo{n}@mail.example",
            fontsize=10,
        )
    return bytes(doc.tobytes())


def _with_field_and_note(field_value: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((40, 60), "Contract with Acme Holdings today", fontsize=10)
    widget = pymupdf.Widget()
    widget.field_name, widget.field_type = "customer", pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(40, 150, 300, 170)
    widget.field_value = field_value
    page.add_widget(widget)
    page.add_text_annot((360, 20), f"ask {field_value} first")
    return bytes(doc.tobytes())


def _dry(client: Any, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post(
        "/transformations?dryRun=true", data=body, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    matches: list[dict[str, Any]] = response.json()["matches"]
    return matches


def test_a_document_taken_twice_is_redacted_exactly_where_the_dry_run_said(
    client: Any, uploaded: Callable[..., str], run_order: Callable[..., Any]
) -> None:
    three, two = uploaded(_pages(3)), uploaded(_pages(2))
    body = order_body([element(three, (1, 1)), element(two), element(three, (3, 3))])
    body["redactionRules"] = RULES
    matches = _dry(client, body)
    assert [m["id"] for m in _dry(client, body)] == [m["id"] for m in matches]
    assert sorted((m["documentId"]["id"] == three, m["page"]) for m in matches) == [
        (False, 0), (False, 0), (False, 1), (False, 1),
        (True, 0), (True, 0), (True, 2), (True, 2),
    ]  # fmt: skip
    body["acceptedMatches"] = [m["id"] for m in matches]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = file_path(order["transformationResultDocumentID"]["id"])
    text = pdftotext_pages(out)
    assert len(text) == 4 and all("Acme" not in t and "@" not in t for t in text)
    assert [t.split()[1] for t in text] == ["1", "1", "2", "3"]  # the pages taken
    areas = client.get(
        f"/transformations/{order['transformationOrderId']['id']}/redactions"
    ).json()["areas"]
    done = {a["matchId"]: a for a in areas}
    assert set(done) == {m["id"] for m in matches}
    for match in matches:
        area, box = done[match["id"]], match["coords"][0]
        assert (area["sourcePage"], area["documentId"]) == (
            match["page"], match["documentId"]["id"])  # fmt: skip
        got = (area["x"], area["y"], area["w"], area["h"])
        assert got == pytest.approx((box["x"], box["y"], box["w"], box["h"]), abs=1e-3)
    # Output pages: the first document's page 1, the second's 1-2, its page 3.
    assert sorted((a["page"], a["sourcePage"]) for a in areas) == [
        (0, 0), (0, 0), (1, 0), (1, 0), (2, 1), (2, 1), (3, 2), (3, 2)]  # fmt: skip


def _kept_field_and_note(out: Any) -> tuple[str, str]:
    with pikepdf.open(out) as pdf:
        annots = list(pdf.pages[0].get("/Annots", []))
        field = next(
            (str(a.get("/V", "")) for a in annots if a.get("/T") == "customer"), ""
        )
        note = next((str(a.get("/Contents", "")) for a in annots
                     if a.get("/Subtype") == "/Text"), "")  # fmt: skip
    return field, note


def _page_only(client: Any, uploaded: Callable[..., str], run_order: Callable[..., Any],
               value: str) -> tuple[str, str]:  # fmt: skip
    # pdf-fdf keeps the source's notes live (pdf burns them into the page).
    body = order_body([element(uploaded(_with_field_and_note(value)))], fmt="pdf-fdf")
    body["redactionRules"] = [{"text": "Acme"}, {"text": "Zed Corp"}]
    matches = _dry(client, body)
    assert {m["target"] for m in matches} == {"page", "field", "annotation"}
    body["acceptedMatches"] = [m["id"] for m in matches if m["target"] == "page"]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = file_path(order["transformationResultDocumentID"]["id"])
    assert "Acme" not in pdftotext_pages(out)[0]
    return _kept_field_and_note(out)


def test_a_dropped_field_and_note_stay_when_no_accepted_match_removes_their_text(
    client: Any, uploaded: Callable[..., str], run_order: Callable[..., Any]
) -> None:
    assert _page_only(client, uploaded, run_order, "Zed Corp") == (
        "Zed Corp", "ask Zed Corp first")  # fmt: skip


@pytest.mark.xfail(
    strict=True,
    reason="every copy of a word an area removes is scrubbed, whatever the "
    "reviewer dropped: the field's value is emptied, the note's text scrubbed",
)
def test_a_dropped_field_and_note_stay_when_a_page_match_removes_their_text(
    client: Any, uploaded: Callable[..., str], run_order: Callable[..., Any]
) -> None:
    assert _page_only(client, uploaded, run_order, "Acme Ltd") == (
        "Acme Ltd", "ask Acme Ltd first")  # fmt: skip


def test_a_dry_run_that_keeps_attachments_lists_their_matches(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((40, 60), "Alpha bravo", fontsize=11)
    doc.embfile_add("notes.txt", b"contact att.one@files.example")
    body = order_body([element(uploaded(bytes(doc.tobytes())))])
    body["redactionRules"] = [{"preset": "email"}]
    assert _dry(client, body) == []  # attachments dropped: nothing to find
    body["keepAttachments"] = True
    [match] = _dry(client, body)
    assert (match["target"], match["place"], match["text"]) == (
        "document", "attached file 1", "att.one@files.example")  # fmt: skip
