"""Redaction by rules through the API: one order finds "Acme", e-mail addresses
and card numbers in a PDF, a converted Word file and a scanned page, redacts
them, proves it (its record), and a dry run names exactly what it removes.

Judged by tools the service does not use to redact: poppler's pdftotext,
mutool, a pikepdf walk of every object, and a fresh Tesseract pass on a
rendering of the scanned page.
"""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import docx
import pymupdf
import pytest
from django.contrib.admin.utils import quote
from django.db import connection

from engines.convert import close_process_pool
from tests.orders.helpers import element, file_path, order_body, pdftotext_pages
from tests.pdf.redaction.judges import findings, mutool_text

RULES: list[dict[str, Any]] = [
    {"text": "Acme", "caseSensitive": False, "overlayText": "(b)(4)"},
    {"preset": "email", "reason": "(b)(6)"},
    {"preset": "card"},
]
EMAIL = "jane.roe@acme-corp.example"
CARD = "4111 1111 1111 1111"
OTHER_WORDS = (
    "quarterly invoice summary prepared for the regional office "
    "payment terms remain thirty days after delivery"
)


@pytest.fixture(scope="module", autouse=True)
def _close_office_pool() -> Iterator[None]:
    yield
    close_process_pool()


def _pdf() -> bytes:
    """A page naming Acme, an address and a card among other words; a form
    field holding Acme; a note whose rich text names the address; Acme in the
    title; a second card number that fails Luhn (kept)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    lines = [
        f"Contract with Acme Holdings for the {OTHER_WORDS}",
        f"Write to {EMAIL} about the delivery schedule",
        f"Charge card {CARD} not 4111 1111 1111 1112 today",
    ]
    for n, line in enumerate(lines):
        page.insert_text((50, 100 + 30 * n), line, fontsize=9)
    widget = pymupdf.Widget()
    widget.field_name = "customer"
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(50, 300, 300, 320)
    widget.field_value = "Acme Holdings"
    page.add_widget(widget)
    note = page.add_text_annot((500, 400), "Reviewed")
    doc.xref_set_key(note.xref, "RC", pymupdf.get_pdf_str(f"<p>ask {EMAIL}</p>"))
    doc.set_metadata({"title": "Acme supply contract", "author": "Records"})
    return bytes(doc.tobytes(garbage=3, deflate=True))


def _docx() -> bytes:
    document = docx.Document()
    document.core_properties.title = "Acme memo"
    document.core_properties.author = EMAIL
    document.add_paragraph(f"Memo to Acme staff about the {OTHER_WORDS}")
    document.add_paragraph(f"Questions go to {EMAIL} before Friday")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _scan() -> bytes:
    """A scanned letter page at 200 dpi (a PNG: the service recognises it)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for n, line in enumerate(
        ["Letter from Acme Industries", f"Card {CARD}", "Kind regards from Lyon"]
    ):
        page.insert_text((72, 120 + 50 * n), line, fontsize=20)
    pixmap = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    pixmap.set_dpi(200, 200)
    return bytes(pixmap.tobytes("png"))


def _tesseract(path: Path, page: int, workdir: Path) -> str:
    prefix = workdir / f"scan-{page}"
    subprocess.run(
        ["pdftoppm", "-r", "200", "-gray", "-png", "-singlefile",
         "-f", str(page + 1), "-l", str(page + 1), str(path), str(prefix)],
        check=True,
    )  # fmt: skip
    return subprocess.run(
        ["tesseract", str(prefix) + ".png", "-", "--psm", "6"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _post(client: Any, body: dict[str, Any], query: str = "") -> Any:
    return client.post(
        "/transformations" + query, data=body, content_type="application/json"
    )


def test_one_order_redacts_rule_matches_in_a_pdf_a_word_file_and_a_scan(
    client: Any,
    uploaded: Callable[..., str],
    converted: Callable[..., str],
    run_order: Callable[..., dict[str, Any]],
    tmp_path: Path,
) -> None:
    pdf, word, scan = uploaded(_pdf()), converted(_docx()), converted(_scan())
    body = order_body([element(pdf), element(word), element(scan)])
    body["redactionRules"] = RULES

    dry = _post(client, body, "?dryRun=true")
    assert dry.status_code == 200, dry.content
    matches = dry.json()["matches"]
    by_target = {t: [m for m in matches if m["target"] == t] for t in
                 ("page", "field", "annotation", "document")}  # fmt: skip
    assert {m["text"].casefold() for m in by_target["page"]} >= {"acme", EMAIL, CARD}
    assert [m["place"] for m in by_target["field"]] == ["field customer"]
    assert any(m["place"].endswith("/RC") for m in by_target["annotation"])
    assert {m["place"] for m in by_target["document"]} >= {
        "metadata /Title",
        "metadata /Author",
    }
    # Only the Luhn-valid card of the PDF, and the scan's.
    cards = [m for m in matches if m["ruleName"] == "preset:card"]
    assert {m["documentId"]["id"] for m in cards} == {pdf, scan}
    assert all(m["text"] == CARD for m in cards)

    body["acceptedMatches"] = [m["id"] for m in matches]
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    assert order["redactionVerified"] is True
    # Once redacted, the order keeps no clear copy of its rules' words.
    assert "text" not in order["redactionRules"][0]
    assert order["redactionRules"][0]["textHmac"]
    assert order["redactionRules"][1] == {**RULES[1], "caseSensitive": False,
                                          "accentSensitive": False}  # fmt: skip
    out = file_path(order["transformationResultDocumentID"]["id"])

    for secret in ("Acme", EMAIL, "4111 1111 1111 1111", "41111111"):
        assert findings(out, secret) == [], secret
    assert "Acme" not in mutool_text(out) and "(b)(4)" not in mutool_text(out)
    scan_page = len(pdftotext_pages(out)) - 1
    seen = _tesseract(out, scan_page, tmp_path)
    assert "Lyon" in seen  # the page is read...
    assert "Acme" not in seen and "4111" not in seen  # ...and the words are gone
    kept = " ".join(pdftotext_pages(out))
    others = OTHER_WORDS.split()
    assert sum(w in kept for w in others) >= 0.9 * len(others)
    assert "4111 1111 1111 1112" in kept  # an invalid card number stays

    record = client.get(
        f"/transformations/{order['transformationOrderId']['id']}/redactions"
    )
    assert record.status_code == 200, record.content
    data = record.json()
    areas = data["areas"]
    assert all(a["source"] == "rule" and a["textHmac"] for a in areas)
    assert all(a["glyphs"] > 0 for a in areas if a["target"] == "page")
    assert [a["fields"] for a in areas if a["target"] == "field"] == [1]
    # Matches outside any area (titles, the note's rich text) are listed too.
    scrubbed = data["scrubbedMatches"]
    assert {m["target"] for m in scrubbed} == {"annotation", "document"}
    assert all(m["textHmac"] and m["place"] for m in scrubbed)
    assert data["outputs"][0]["sha256"] == _sha256(out)
    assert {i["documentId"] for i in data["inputs"]} == {pdf, word, scan}
    assert data["outputs"][0]["verification"]["objects"] > 0
    # Nothing in clear: neither the words nor the address.
    assert not re.search(r"acme|jane|4111", str(data), re.IGNORECASE)
    # The dry run named exactly the areas the order removed.
    dry_areas = sorted(
        (m["id"], c["x"], c["y"], c["w"], c["h"])
        for m in matches if m["target"] in ("page", "field")
        for c in m["coords"]
    )  # fmt: skip
    done = sorted((a["matchId"], a["x"], a["y"], a["w"], a["h"]) for a in areas)
    assert [d[0] for d in done] == [d[0] for d in dry_areas]
    assert [d[1:] for d in done] == [pytest.approx(d[1:], abs=0.001) for d in dry_areas]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), sum(glyphs) FROM redaction_area_report WHERE order_id = %s",
            [order["transformationOrderId"]["id"]],
        )
        assert cursor.fetchone() == (len(areas), sum(a["glyphs"] for a in areas))


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_reviewer_drops_a_match_and_the_order_removes_exactly_the_others(
    client: Any,
    admin_client: Any,
    uploaded: Callable[..., str],
    run_order: Callable[..., Any],
) -> None:
    pdf = uploaded(_pdf())
    body = order_body([element(pdf)])
    body["redactionRules"] = [{"text": "Acme"}]
    dry = _post(client, body, "?dryRun=true&matchText=hash").json()
    page = [m for m in dry["matches"] if m["target"] == "page"]
    assert len(page) == 2  # "Acme Holdings" and the "acme" of the address
    assert all("text" not in m and m["textHmac"] for m in page)
    dropped = min(page, key=lambda m: m["coords"][0]["y"])  # the first line's
    kept = [
        m["id"]
        for m in dry["matches"]
        if m["target"] in ("page", "field") and m is not dropped
    ]
    body["acceptedMatches"] = kept
    order = run_order(body)
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    out = file_path(order["transformationResultDocumentID"]["id"])
    assert "Contract with Acme Holdings" in pdftotext_pages(out)[0]
    areas = client.get(
        f"/transformations/{order['transformationOrderId']['id']}/redactions"
    ).json()["areas"]
    assert sorted(a["matchId"] for a in areas) == sorted(kept)
    page = admin_client.get(
        "/admin/orders/transformationorder/"
        + quote(order["transformationOrderId"]["id"])
        + "/change/"
    )
    assert page.status_code == 200
    shown = page.content.decode()
    assert "Redaction record" in shown and "preset:" not in shown
    assert f"{len(kept)} areas ({len(kept)} from rules)" in shown
    assert "acme-corp" not in pdftotext_pages(out)[0]


def test_an_overlay_that_would_show_a_redacted_word_is_refused(
    client: Any, uploaded: Callable[..., str]
) -> None:
    pdf = uploaded(_pdf())
    body = order_body([element(pdf)])
    body["redactionRules"] = [
        {"text": "Acme", "overlayText": "ACME withheld"},
        {"preset": "card"},
    ]
    refused = _post(client, body)
    assert refused.status_code == 400
    assert "redactionRules[0].overlayText" in refused.json()["errors"]
    body["redactionRules"] = [{"preset": "iban", "reason": "(b)(99)"}]
    assert "redactionRules[0].reason" in _post(client, body).json()["errors"]
    body["redactionRules"] = [{"preset": "no-such"}]
    assert "redactionRules[0].preset" in _post(client, body).json()["errors"]
