"""HTML -> PDF with MuPDF's Story: no scripts, no network, ever.

Story lays out HTML and CSS with MuPDF's own engine, which has no JavaScript
and no HTTP client: a remote image or stylesheet can only be looked up in
the archive we hand it (the e-mail's inline parts), never fetched. Markup is
sanitised first (`sanitize.py`). Pages are A4 portrait with 36 pt margins;
fonts are subset when saving (the CJK fallback font is megabytes whole).
"""

from __future__ import annotations

import io
import os

import pymupdf

from engines.convert.detect.charset import html_encoding
from engines.convert.fidelity import Fidelity
from engines.convert.markup.sanitize import sanitize
from engines.convert.rendition import Deadline, check_page_count, describe
from engines.convert.types import Detected, LimitExceeded, Limits, Rendition
from engines.errors import ConversionFailed

PAGE = pymupdf.Rect(0, 0, 595, 842)
MARGIN = 36
BASE_CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.3; }
pre, code { font-family: monospace; font-size: 9pt; white-space: pre-wrap; }
table { border-collapse: collapse; }
td, th { padding: 2pt 4pt; vertical-align: top; }
img { max-width: 100%; }
"""


def html_to_pdf(path: str, detected: Detected, dest: str, limits: Limits) -> Rendition:
    """Write at `dest` the HTML page at `path` as a PDF (remote content left
    out, scripts not run)."""
    deadline = Deadline(limits.timeout)
    size = os.path.getsize(path)
    if size > limits.max_text_bytes:
        raise LimitExceeded(
            f"the HTML page is {size:,} bytes; the limit is {limits.max_text_bytes:,}"
        )
    with open(path, "rb") as fh:
        data = fh.read()
    encoding = html_encoding(data, detected.encoding)
    render_html(
        sanitize(data.decode(encoding.name, errors="replace")), dest, limits, deadline
    )
    return describe(
        dest,
        engine="html",
        started=deadline.started,
        max_pages=limits.max_pages,
        fidelity=Fidelity(encoding=encoding),
    )


def render_html(
    markup: str,
    dest: str,
    limits: Limits,
    deadline: Deadline,
    *,
    archive: pymupdf.Archive | None = None,
    css: str = "",
) -> None:
    """Lay out sanitised `markup` on A4 pages and save the PDF at `dest`.
    Images it names are looked up in `archive` only."""
    out = io.BytesIO()
    try:
        story = pymupdf.Story(
            html=markup, user_css=BASE_CSS + css, archive=archive or pymupdf.Archive()
        )
        writer = pymupdf.DocumentWriter(out)
        pages, more = 0, True
        while more:
            pages += 1
            check_page_count(pages, limits.max_pages, "the page")
            deadline.check("rendering the HTML")
            device = writer.begin_page(PAGE)
            more, _ = story.place(PAGE + (MARGIN, MARGIN, -MARGIN, -MARGIN))
            story.draw(device)
            writer.end_page()
        writer.close()
        with pymupdf.open("pdf", out.getvalue()) as doc:
            doc.subset_fonts()
            doc.save(dest, garbage=3, deflate=True)
    except (LimitExceeded, ConversionFailed):
        raise
    except RuntimeError as exc:  # MuPDF's layout errors
        raise ConversionFailed(
            f"the HTML could not be laid out ({' '.join(str(exc).split())[:160]})"
        ) from exc
