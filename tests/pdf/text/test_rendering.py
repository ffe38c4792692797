"""A page rendered to PNG is the displayed page at the requested width."""

from __future__ import annotations

import struct
from pathlib import Path

import pymupdf

from engines.pdf import text
from tests.pdf.text.helpers import make_pdf


def test_render_is_the_displayed_page_at_the_requested_width(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page(width=300, height=500)
        page.set_rotation(90)

    png = text.render_page_png(make_pdf(tmp_path, build), 0, 250)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (250, 150)
