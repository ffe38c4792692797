"""Opening the two documents of a comparison (read only, empty password)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pymupdf

from engines.errors import EngineError

# How each side is named in messages when the caller gives no names.
SIDES = ("the left document", "the right document")


@contextmanager
def open_pdf(path: str, label: str) -> Iterator[pymupdf.Document]:
    """The PDF at `path`, opened with the empty password and closed on exit.

    `label` names the document in errors ("document 'b64_...'"): users know their
    documents by id, never by the file the service keeps them in."""
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # PyMuPDF raises several unrelated types here
        raise EngineError(f"{label} could not be opened as a PDF") from exc
    try:
        if doc.needs_pass and not doc.authenticate(""):
            raise EngineError(f"{label} is encrypted with a password")
        yield doc
    finally:
        doc.close()
