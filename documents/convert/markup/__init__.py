"""HTML: sanitised, then laid out by MuPDF's Story (no scripts, no network)."""

from __future__ import annotations

from documents.convert.markup.render import html_to_pdf, render_html
from documents.convert.markup.sanitize import sanitize

__all__ = ["html_to_pdf", "render_html", "sanitize"]
