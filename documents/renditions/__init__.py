"""Renditions: the PDF through which a document's pages are read, made from what
was uploaded, and the other formats a conversion makes.

A PDF is readable at once; an image gets its PDF at upload; everything else
(Office, text, HTML, e-mail, archives) is stored as uploaded, marked PENDING and
made readable by a worker: its rendition is owed, in the transaction that stores
it, to the app registered as the maker (`maker`). Readers wait for it
(`waits.wait_readable`). `states` holds the state changes the maker reports.
"""

from documents.renditions.states import rendition_failed, rendition_ready, text_ready
from documents.renditions.waits import wait_readable, wait_text

__all__ = [
    "rendition_failed",
    "rendition_ready",
    "text_ready",
    "wait_readable",
    "wait_text",
]
