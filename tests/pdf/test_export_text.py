"""Text and Markdown out of a PDF: pages, reading order, headings, lists, tables."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf.export import export_markdown, export_text
from tests import corpus


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Page 1: a heading, a paragraph, a list and a ruled 2 x 3 table; page 2:
    two columns, the left one drawn first."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Annual Summary", fontsize=24, fontname="hebo")
    page.insert_text(
        (72, 120), "This paragraph explains the figures below.", fontsize=11
    )
    for n, item in enumerate(("- apples grown", "- pears sold")):
        page.insert_text((72, 150 + 16 * n), item, fontsize=11)
    cells = [["Fruit", "Tons"], ["Apple", "12"], ["Pear", "7"]]
    for row, values in enumerate(cells):
        for col, value in enumerate(values):
            x, y = 72 + 150 * col, 220 + 24 * row
            page.draw_rect(
                pymupdf.Rect(x, y, x + 150, y + 24), color=(0, 0, 0), width=1
            )
            page.insert_text((x + 6, y + 16), value, fontsize=11)
    second = doc.new_page()
    for n in range(3):
        second.insert_text((72, 100 + 14 * n), f"left line {n}", fontsize=11)
    for n in range(3):
        second.insert_text((320, 100 + 14 * n), f"right line {n}", fontsize=11)
    path = tmp_path_factory.mktemp("export") / "report.pdf"
    doc.save(path)
    return path


def test_text_has_one_form_feed_between_pages_and_columns_in_order(
    report: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    export_text(str(report), str(out))
    pages = out.read_text(encoding="utf-8").split("\f")
    assert len(pages) == 2
    assert pages[0].index("Annual Summary") < pages[0].index("Apple")
    lines = pages[1].split()
    text = " ".join(lines)
    assert text.index("left line 2") < text.index("right line 0")


def test_markdown_has_heading_paragraph_list_and_table(
    report: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.md"
    export_markdown(str(report), str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("#") and "Annual Summary" in line for line in lines)
    assert "This paragraph explains the figures below." in lines
    assert sum(1 for line in lines if line.startswith("- ")) == 2
    table = [line for line in lines if line.startswith("|")]
    assert table[0].replace(" ", "") == "|Fruit|Tons|"
    assert table[1].replace(" ", "").strip("|").split("|") == ["---", "---"]
    assert [row.replace(" ", "") for row in table[2:]] == ["|Apple|12|", "|Pear|7|"]
    text = "\n".join(lines)
    assert text.index("left line 2") < text.index("right line 0")


@pytest.mark.skipif(not corpus.available(), reason=corpus.ABSENT_REASON)
@pytest.mark.corpus
def test_scan_text_comes_from_its_ocr_layer(tmp_path: Path) -> None:
    src = corpus.CORPUS / "sandwich.pdf"
    text, markdown = tmp_path / "out.txt", tmp_path / "out.md"
    export_text(str(src), str(text))
    export_markdown(str(src), str(markdown))
    assert "LinnSequencer" in text.read_text(encoding="utf-8")
    assert "LinnSequencer" in markdown.read_text(encoding="utf-8")
