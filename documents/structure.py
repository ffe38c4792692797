"""Reads of a whole document's structure: outline, named destinations, signatures,
and its print-ready copy (cached on disk). Every read works on the document's PDF
rendition (`storage.pdf_path`), so it serves any format that has one, waiting for
a conversion under way (`renditions.wait_readable`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

from documents.models import Document
from documents.renditions.waits import wait_readable
from documents.services.derived import readable_pdf
from documents.storage import local_path, pdf_path, temp_path
from engines.pdf import navigation, printable, xfdf

if TYPE_CHECKING:
    from engines.pdf import signatures as signature_engine


def bookmarks(doc: Document) -> list[navigation.Bookmark]:
    """The outline tree of the document's PDF; [] when it has none."""
    doc = wait_readable(doc)
    with pdf_path(doc) as path:
        return navigation.outline(str(path))


def destinations(doc: Document) -> list[navigation.NamedDestination]:
    doc = wait_readable(doc)
    with pdf_path(doc) as path:
        return navigation.named_destinations(str(path))


def signatures(doc: Document) -> list[signature_engine.Signature]:
    """The digital signatures of the document's PDF, checked; [] when unsigned."""
    # Here, not at the top: pyHanko's validation stack is ~30 MB that every web
    # process would carry for a call few clients make.
    from engines.pdf import signatures as signature_engine

    doc = wait_readable(doc)
    with pdf_path(doc) as path:
        return signature_engine.signatures(str(path))


def annotations_xfdf(doc: Document) -> bytes:
    """The annotations the document's PDF carries, as XFDF (links, popups and form
    widgets aside); an empty <annots/> when it has none."""
    doc = wait_readable(doc)
    with pdf_path(doc) as path:
        return xfdf.pdf_to_xfdf(str(path), file_name=doc.download_name)


def printable_copy(doc: Document) -> Path:
    """A copy of the document's PDF that opens the print dialog, made once per
    content (cached by the PDF's hash: documents never change). A container's
    copy is one PDF of its parts (`derived.readable_pdf`)."""
    source = readable_pdf(doc, with_text=False)
    name = f"{source.sha256}-v{printable.VERSION}.pdf"
    cached = Path(settings.DATA_DIR) / "cache" / "printable" / name
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        with local_path(source) as path, temp_path(".pdf") as out:
            printable.make_printable(str(path), str(out))
            # Atomic (same file system): a concurrent request never sees half a file.
            os.replace(out, cached)
    return cached
