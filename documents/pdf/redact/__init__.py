"""True redaction of page areas, and scrubbing of the redacted words elsewhere.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document: the
caller writes it with a full rewrite so that no earlier revision survives.

The order of work: `redact_page` on each page (with `annotations`: whatever
annotation lies over an area), `scrub_document` (fields and annotations MuPDF
must redraw), then, on the written file, `sweep` (every other copy of the words,
with `forms`) and `verify` (the output read back by other readers).

Layout: `page` (areas, edge rule, removed runs), `mupdf_pass` (MuPDF's pass and
the fill), `annotations`, `type3` (Type 3 text by its ink), `scrub`, `sweep`,
`indirect` (patterns and soft masks), `forms`, `verify`; `words` (the removed
text as a pattern), `marked_content` (strings inside content streams).
Shared with other engines: `fonts` (lying /ToUnicode maps), `glyphs` (tall
glyph boxes), `fieldtree` (orphan widgets).
"""

from documents.pdf.redact.page import EDGE_FRACTION, PageRedaction, redact_page
from documents.pdf.redact.scrub import scrub_document
from documents.pdf.redact.sweep import sweep
from documents.pdf.redact.verify import verify
from documents.pdf.redact.words import Removed, merged

__all__ = [
    "EDGE_FRACTION",
    "PageRedaction",
    "Removed",
    "merged",
    "redact_page",
    "scrub_document",
    "sweep",
    "verify",
]
