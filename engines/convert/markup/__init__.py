"""HTML: sanitised, then laid out by MuPDF's Story (no scripts, no network)."""

from __future__ import annotations

from engines.convert.markup.render import html_to_pdf, render_html
from engines.convert.markup.sanitize import sanitize

__all__ = ["html_to_pdf", "render_html", "sanitize"]
