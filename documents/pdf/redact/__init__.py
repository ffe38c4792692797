"""True redaction of page areas, and scrubbing of the redacted words elsewhere.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document: the
caller writes it with a full rewrite so that no earlier revision survives.

Layout: `page` (redaction of page areas), `scrub` (the document's other copies of
the text), `words` (the removed words as a pattern), `marked_content` (alternate
texts in content streams).
"""

from documents.pdf.redact.page import EDGE_FRACTION, redact_page
from documents.pdf.redact.scrub import scrub_document

__all__ = ["EDGE_FRACTION", "redact_page", "scrub_document"]
