"""Annotations on an assembled PDF: burnt into the page content, or kept live.

Positions come in displayed-page space (points, origin at the top-left corner of
the page as displayed, /Rotate applied, decisions §4) and are converted only
through `geometry`. Output pages are counted from 0.

Layout: `apply` (`apply_annotations` itself: open, redact, draw, burn, save),
`kinds` (which kinds exist and who draws them), `drawers` (one function per drawn
kind), `fields` (the request's fields checked and written), `styles` (default
appearance strings, rich text), `pdfobj` (edits of MuPDF dictionaries), `names`
(type names).
"""

from engines.errors import RedactionLeak
from engines.pdf.annotate.apply import apply_annotations
from engines.pdf.annotate.drawers import Mode
from engines.pdf.annotate.fields import LINE_ENDINGS, NOTE_ICONS
from engines.pdf.annotate.kinds import KINDS
from engines.pdf.annotate.names import kind_name, simple_name
from engines.pdf.types import AnnotationReport

__all__ = [
    "KINDS",
    "LINE_ENDINGS",
    "NOTE_ICONS",
    "AnnotationReport",
    "Mode",
    "RedactionLeak",
    "apply_annotations",
    "kind_name",
    "simple_name",
]
