"""The check of a written output (`redact.verify`), on files made to fail it.

Each file holds a removed word where the check must see it (or, for the last
test, where it may stay); the message must name the page, never the word nor a
path.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pymupdf
import pytest

from documents.pdf import redact
from documents.pdf.types import EngineError, RedactionLeak
from tests.pdf.redaction.build_drawing import tiling_pattern

WORD = redact.Removed("Quokka")


def _page_with(path: Path, lines: list[str]) -> pymupdf.Rect:
    """A one-page PDF with `lines`; returns the box of the first "Quokka"."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    for number, line in enumerate(lines):
        page.insert_text((40, 60 + 30 * number), line, fontsize=12)
    box = page.search_for("Quokka")[0]
    document.save(path)
    return box


def _redaction(area: pymupdf.Rect) -> redact.PageRedaction:
    corners = (area.x0, area.y0, area.x1, area.y1)
    return redact.PageRedaction([WORD], [corners], [corners])


def _leak_message(path: Path, pages: dict[int, redact.PageRedaction]) -> str:
    with pytest.raises(RedactionLeak) as caught:
        redact.verify(str(path), [WORD], pages)
    assert isinstance(caught.value, EngineError)
    message = str(caught.value)
    assert "Quokka" not in message and "quokka" not in message.lower()
    assert str(path.parent) not in message
    return message


def test_a_glyph_left_under_the_area_is_a_leak_on_its_page(tmp_path: Path) -> None:
    path = tmp_path / "left.pdf"
    box = _page_with(path, ["alpha Quokka omega"])
    assert "page 1" in _leak_message(path, {0: _redaction(box)})


def test_the_word_left_in_the_metadata_is_a_leak_of_the_document(
    tmp_path: Path,
) -> None:
    path = tmp_path / "title.pdf"
    box = _page_with(path, ["alpha beta omega", "Quokka"])
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.trailer.Info = pdf.make_indirect(pikepdf.Dictionary(Title="The quokka"))
        pdf.save(path)
    # The area lies over the second line, where "Quokka" is shown: the page
    # check alone would fail; it is moved off the word to test the metadata.
    away = pymupdf.Rect(box.x0, box.y0 + 200, box.x1, box.y1 + 200)
    message = _leak_message(path, {0: _redaction(away)})
    assert "document's own data" in message


def test_a_copy_left_in_a_pattern_is_a_leak_on_its_page(tmp_path: Path) -> None:
    # MuPDF's redaction alone (what the engine did before it reached patterns)
    # removes the shown word and leaves the pattern's copy under the area.
    case = tiling_pattern(tmp_path / "pattern.pdf")
    zone = case.zones[0]
    area = pymupdf.Rect(zone.x, zone.y, zone.x + zone.w, zone.y + zone.h)
    out = tmp_path / "mupdf-only.pdf"
    with pymupdf.open(case.path) as document:
        document[0].add_redact_annot(area)
        document[0].apply_redactions(images=0, graphics=0)
        assert "Acme" not in document[0].get_text().split("\n")[2]
        document.save(out)
    acme = redact.Removed("Acme")
    corners = (area.x0, area.y0, area.x1, area.y1)
    with pytest.raises(RedactionLeak, match="page 1"):
        redact.verify(
            str(out), [acme], {0: redact.PageRedaction([acme], [corners], [corners])}
        )


def test_the_word_shown_outside_the_area_may_stay(tmp_path: Path) -> None:
    path = tmp_path / "twice.pdf"
    box = _page_with(path, ["alpha beta omega", "Quokka stays here"])
    away = pymupdf.Rect(box.x0, box.y0 + 100, box.x1, box.y1 + 100)
    redact.verify(str(path), [WORD], {0: _redaction(away)})
