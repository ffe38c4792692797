"""The upload's page pass reads the page tree without loading pages: it must
give what MuPDF's loaded pages give, on every page of the corpus."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.errors import UnsupportedDocument
from engines.pdf.layout import inspect_pdf, open_pdf
from engines.pdf.pagetree import PageTree
from tests import corpus

pytestmark = pytest.mark.skipif(not corpus.available(), reason=corpus.ABSENT_REASON)


def _corpus_pdfs() -> list[Path]:
    return sorted(corpus.CORPUS.glob("*.pdf")) if corpus.available() else []


@pytest.mark.parametrize("path", _corpus_pdfs(), ids=lambda path: path.name)
def test_sizes_rotations_and_scan_candidates_are_those_of_loaded_pages(
    path: Path,
) -> None:
    with pymupdf.open(path) as doc:
        if doc.needs_pass:
            pytest.skip("encrypted with a password")
        tree = PageTree(str(path))
        assert not tree.needs_password("")
        assert tree.title() == (doc.metadata or {}).get("title", "")
        entries = list(tree.pages(find_scans=True))
        assert len(entries) == doc.page_count
        for page, entry in zip(doc, entries, strict=True):
            assert (entry.width, entry.height) == (page.rect.width, page.rect.height)
            assert entry.rotation == page.rotation
            scan = bool(page.get_images()) and not page.get_fonts()
            assert entry.may_be_scan == scan, page.number


def _page(doc: pymupdf.Document, text: str | None, image: bool) -> None:
    page = doc.new_page(width=300, height=200)
    if image:
        pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 8, 8), False)
        pixmap.clear_with(128)
        page.insert_image(page.rect, pixmap=pixmap)
    if text:
        page.insert_text((20, 50), text)


def test_rotated_pages_boxes_and_forms_read_as_mupdf_shows_them(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page(doc, "text only", image=False)
    _page(doc, None, image=True)  # a scan
    _page(doc, "words over a picture", image=True)
    _page(doc, None, image=False)  # blank
    doc[1].set_rotation(90)
    doc[2].set_rotation(270)
    doc[3].set_cropbox(pymupdf.Rect(10, 20, 110, 70))
    # An image inside a form: still a scan; a form holding text: not one.
    holder = pymupdf.open()
    _page(holder, None, image=True)
    _page(holder, "text in a form", image=False)
    scan_in_form = doc.new_page(width=200, height=300)
    scan_in_form.show_pdf_page(scan_in_form.rect, holder, 0)
    text_in_form = doc.new_page(width=200, height=300)
    text_in_form.show_pdf_page(text_in_form.rect, holder, 0)
    text_in_form.show_pdf_page(text_in_form.rect, holder, 1)
    path = tmp_path / "pages.pdf"
    doc.save(path)
    doc = pymupdf.open(path)
    tree = PageTree(str(path))
    entries = list(tree.pages(find_scans=True))
    assert [(e.width, e.height, e.rotation) for e in entries] == [
        (page.rect.width, page.rect.height, page.rotation) for page in doc
    ]
    assert [(e.width, e.height) for e in entries][:4] == [
        (300, 200),
        (200, 300),
        (200, 300),
        (100, 50),
    ]
    assert [e.may_be_scan for e in entries] == [False, True, False, False, True, False]
    assert not any(e.may_be_scan for e in tree.pages(find_scans=False))
    assert tree.page_count == 6 and tree.title() == ""


def test_a_refused_file_is_never_named_by_its_path(tmp_path: Path) -> None:
    junk = tmp_path / "spooled-upload"
    junk.write_bytes(b"%PDF-1.7\nnot a PDF at all\n")
    for read in (open_pdf, inspect_pdf):
        with pytest.raises(UnsupportedDocument) as refused:
            read(str(junk))
        assert "not a readable PDF" in str(refused.value)
        assert str(tmp_path) not in str(refused.value)
