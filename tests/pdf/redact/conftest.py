"""The document most redaction tests start from."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.pdf.redact.helpers import LINES, XMP, write_lines


@pytest.fixture
def secret_pdf(tmp_path: Path) -> Path:
    """Page 0: three tightly set lines (13 pt leading for 16.5 pt glyph boxes, so
    a word's box overlaps the lines above and below by 21 % of their height), a
    red image shared with page 1, a link and a highlight over "secret", another
    link elsewhere, a form field; "secret" is also in the Title, Author, XMP and
    an outline entry. It is saved twice, the second time incrementally."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES)
    red = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 50), False)
    red.set_rect(red.irect, (255, 0, 0))
    image = page.insert_image(pymupdf.Rect(250, 100, 350, 200), pixmap=red)
    other = document.new_page(width=400, height=300)
    other.insert_image(pymupdf.Rect(250, 100, 350, 200), xref=image)
    other.insert_text((50, 100), "second page text", fontsize=12)
    page = document[0]
    secret = pymupdf.Rect(page.get_text("words")[4][:4])
    page.insert_link(
        {"kind": pymupdf.LINK_URI, "from": secret, "uri": "https://example.org/secret"}
    )
    page.insert_link(
        {
            "kind": pymupdf.LINK_URI,
            "from": pymupdf.Rect(50, 200, 120, 215),
            "uri": "https://example.org/kept",
        }
    )
    highlight = page.add_highlight_annot(secret)
    highlight.set_info(content="about the secret")
    highlight.update()
    field = pymupdf.Widget()
    field.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
    field.field_name = "code"
    field.field_value = "the secret code"
    field.rect = pymupdf.Rect(50, 240, 200, 260)
    page.add_widget(field)
    document.set_metadata({"title": "The secret report", "author": "Agent SECRET"})
    document.set_xml_metadata(XMP)
    document.set_toc([[1, "Secret chapter", 1], [1, "Plain chapter", 2]])
    path = tmp_path / "secret.pdf"
    document.save(path)
    document.close()
    with pymupdf.open(path) as again:  # an earlier revision still holding it all
        again[1].insert_text((50, 150), "added later", fontsize=12)
        again.saveIncr()
    return path
