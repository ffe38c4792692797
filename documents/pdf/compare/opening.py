"""Opening the two documents of a comparison (read only, empty password)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf

from documents.pdf.types import EngineError


@contextmanager
def open_pdf(path: str) -> Iterator[pymupdf.Document]:
    """The PDF at `path`, opened with the empty password and closed on exit."""
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # PyMuPDF raises several unrelated types here
        raise EngineError(f"{Path(path).name} could not be opened as a PDF") from exc
    try:
        if doc.needs_pass and not doc.authenticate(""):
            raise EngineError(f"{Path(path).name} is encrypted with a password")
        yield doc
    finally:
        doc.close()
