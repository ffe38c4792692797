"""An attached PDF redacted like the output that carries it: the words removed
where its pages show them, then rebuilt by the allowlist, its own attachments
scrubbed in turn."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence

import pikepdf
import pymupdf

from engines.errors import EngineError
from engines.pdf import geometry
from engines.pdf.redact.page import redact_page
from engines.pdf.redact.scrub import scrub_document
from engines.pdf.redact.sweep import sweep
from engines.pdf.redact.words import Removed, holds, words_pattern


def scrub_attached_pdf(data: bytes, runs: Sequence[Removed | str]) -> bytes:
    """An attached PDF: the words redacted where its pages show them (each
    word's box), then rebuilt like the output, its own attachments kept."""
    pattern = words_pattern(runs)
    try:
        document = pymupdf.open("pdf", data)
    except (RuntimeError, ValueError) as exc:
        raise EngineError("An attached PDF cannot be read to be scrubbed.") from exc
    removed: list[Removed | str] = list(runs)
    pages: list[int] = []
    with document, tempfile.TemporaryDirectory() as scratch:
        for page in document:
            boxes = [
                pymupdf.Rect(word[:4])
                for word in page.get_text("words")
                if pattern is not None and holds(word[4], pattern)
            ]
            if boxes:
                areas = [
                    (
                        geometry.rect_to_box(geometry.page_rect_to_display(page, box)),
                        None,
                    )
                    for box in boxes
                ]
                removed += redact_page(page, areas).removed
                pages.append(page.number)
        scrub_document(document, removed)
        path = os.path.join(scratch, "attached.pdf")
        document.save(path, garbage=1, deflate=True)
        with pikepdf.open(path) as pdf:
            sweep(
                pdf,
                removed,
                pages,
                keep_attachments=True,
                scrub_pdf=scrub_attached_pdf,
            )
            out = io.BytesIO()
            pdf.save(out)
    return out.getvalue()
