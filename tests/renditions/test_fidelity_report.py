"""Each conversion keeps a fidelity report, read back from the admin page and
from SQL: fonts that stood in for others, the encoding chosen, OCR confidence."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pymupdf
from django.db import connection
from docx import Document as Docx
from docx.shared import Pt

from documents.models import Document


def _row(doc_id: str) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM conversion_fidelity_report WHERE document_id = %s", [doc_id]
        )
        names = [c.name for c in cursor.description]
        found = cursor.fetchone()
    assert found is not None, "no fidelity row"
    return dict(zip(names, found, strict=True))


def test_a_word_file_in_calibri_reports_its_stand_in(
    converted: Callable[..., str], admin_client: Any
) -> None:
    word = Docx()
    run = word.add_paragraph().add_run("Quarterly figures in Calibri")
    run.font.name = "Calibri"
    run.font.size = Pt(11)
    buffer = io.BytesIO()
    word.save(buffer)
    doc_id = converted(buffer.getvalue())
    fidelity = Document.objects.get(pk=doc_id).fidelity or {}
    assert {"asked": "Calibri", "used": "Carlito", "metric_compatible": True} in (
        fidelity["substitutions"]
    )
    row = _row(doc_id)
    assert row["format"] == "docx" and row["fonts_substituted"] >= 1
    assert row["fonts_not_metric_compatible"] == 0
    page = admin_client.get(f"/admin/documents/document/{doc_id}/change/")
    assert "Calibri → Carlito" in page.content.decode()


def test_a_greek_text_reports_its_encoding(converted: Callable[..., str]) -> None:
    text = "Η γρήγορη καφέ αλεπού πηδά πάνω από τον τεμπέλη σκύλο.\n" * 20
    doc_id = converted(text.encode("cp1253"))
    row = _row(doc_id)
    assert row["encoding"] in ("cp1253", "windows-1253")
    assert 0 < row["encoding_confidence"] <= 1


def test_a_scan_reports_its_recognition_confidence_per_page(
    converted: Callable[..., str],
) -> None:
    source = pymupdf.open()
    page = source.new_page(width=612, height=792)
    page.insert_text((72, 120), "Invoice number 4471 for office chairs", fontsize=18)
    pixmap = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    scan = pymupdf.open()
    scan.new_page(width=612, height=792).insert_image(page.rect, pixmap=pixmap)
    doc_id = converted(scan.tobytes())
    report = Document.objects.get(pk=doc_id).ocr_report or {}
    assert report["pages_ocred"] == [0]
    assert report["pages"][0]["confidence"] > 50
    row = _row(doc_id)
    assert row["ocr_pages"] == 1 and row["ocr_mean_confidence"] > 50
