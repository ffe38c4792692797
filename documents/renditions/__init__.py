"""Renditions: the PDF through which a document's pages are read, made from what
was uploaded, and the other formats a conversion makes.

A PDF is readable at once; an image gets its PDF at upload; everything else
(Office, text, HTML, e-mail, archives) is stored as uploaded, marked PENDING and
made readable by a worker (a conversion order, asked for through the
`documents.signals.rendition_requested` signal). Readers wait for it
(`waits.wait_readable`).
"""

from documents.renditions.making import convert, make_readable, rendition_delete
from documents.renditions.states import rendition_failed, rendition_ready, text_ready
from documents.renditions.waits import wait_readable, wait_text

__all__ = [
    "convert",
    "make_readable",
    "rendition_delete",
    "rendition_failed",
    "rendition_ready",
    "text_ready",
    "wait_readable",
    "wait_text",
]
