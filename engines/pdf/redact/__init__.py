"""True redaction of page areas, and scrubbing of the redacted words elsewhere.

Areas are `Box`es in displayed-page space (points, top-left origin of the page as
displayed, decisions §4); they are converted once, through `geometry`.
Pages are PyMuPDF pages of an open document; nothing here saves the document: the
caller writes it with a full rewrite so that no earlier revision survives.

The order of work: `redact_page` on each page (with `annotations`: whatever
annotation lies over an area), `scrub_document` (fields and annotations MuPDF
must redraw), then, on the written file, `sweep`: the output rebuilt from an
allowlist (`allowlist`, `rebuild`, `catalog`), every copy of the words
scrubbed (`strings`, `images`), attachments kept only on request
(`attachments`), fields settled (`forms`). The output is then checked by
`engines.verify`, which shares no code with this package.

Layout: `page` (areas, edge rule, removed runs), `mupdf_pass` (MuPDF's pass and
the fill), `annotations`, `type3` (Type 3 text by its ink), `scrub`, `sweep`,
`indirect` (patterns and soft masks), `forms`; `words` (the removed text as a
pattern), `marked_content` (strings inside content streams).
Shared with other engines: `fonts` (lying /ToUnicode maps), `glyphs` (tall
glyph boxes), `fieldtree` (orphan widgets).
"""

from engines.pdf.redact.glyphmap import EDGE_FRACTION
from engines.pdf.redact.page import PageRedaction, redact_page
from engines.pdf.redact.scrub import scrub_document
from engines.pdf.redact.sweep import sweep
from engines.pdf.redact.words import Removed, merged

__all__ = [
    "EDGE_FRACTION",
    "PageRedaction",
    "Removed",
    "merged",
    "redact_page",
    "scrub_document",
    "sweep",
]
