"""document_report names formats as people know them."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.db import connection
from docx import Document as Docx


def test_a_word_file_and_a_mail_are_reported_as_docx_and_eml(
    uploaded: Callable[..., str],
) -> None:
    word = Docx()
    word.add_paragraph("Report")
    buffer = io.BytesIO()
    word.save(buffer)
    docx = uploaded(buffer.getvalue())
    mail = uploaded(
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: hello\r\n"
        b"Date: Mon, 2 Nov 2026 10:00:00 +0000\r\n\r\nHello there.\r\n"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT document_id, format FROM document_report "
            "WHERE document_id IN (%s, %s)",
            [docx, mail],
        )
        assert dict(cursor.fetchall()) == {docx: "docx", mail: "eml"}
