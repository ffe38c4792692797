"""Reasons on the box: a redaction's overlay text is drawn inside its black
box as outlines (seen, never extracted), and one that would show a removed
word is refused."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf.annotate import apply_annotations
from engines.pdf.types import Annotation, Box, Placement
from tests.pdf.redaction import judges


@pytest.fixture(scope="module")
def page_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Box]:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    page.insert_text((40, 80), "Paid to Northwind on Monday", fontsize=14)
    hit = page.search_for("Northwind")[0]
    path = tmp_path_factory.mktemp("overlay") / "page.pdf"
    doc.save(path)
    return path, Box(hit.x0 - 2, hit.y0 - 2, hit.width + 4, hit.height + 4)


def _redact(src: Path, box: Box, overlay: str, dest: Path) -> None:
    annotation = Annotation(
        "RedactElemType", "d", 0, "r", position=box, overlay_text=overlay
    )
    apply_annotations(str(src), str(dest), [Placement(0, annotation)], mode="burn")


def test_the_overlay_is_drawn_inside_the_box_and_is_not_text(
    page_pdf: tuple[Path, Box], tmp_path: Path
) -> None:
    src, box = page_pdf
    out = tmp_path / "out.pdf"
    _redact(src, box, "(b)(6)", out)
    assert judges.findings(out, "Northwind") == []
    assert "(b)(6)" not in judges.pdftotext(out) + judges.mutool_text(out)
    with pymupdf.open(out) as doc:
        pixmap = doc[0].get_pixmap(dpi=144, colorspace=pymupdf.csGRAY)
    scale = 2
    inside = [
        pixmap.pixel(x, y)[0]
        for x in range(int(box.x * scale) + 2, int((box.x + box.w) * scale) - 2)
        for y in range(int(box.y * scale) + 2, int((box.y + box.h) * scale) - 2)
    ]
    # Mostly the black fill, with light strokes of the code drawn on it.
    assert sum(v < 60 for v in inside) > 0.5 * len(inside)
    assert sum(v > 200 for v in inside) > 0.02 * len(inside)


def test_an_overlay_naming_a_removed_word_is_refused(
    page_pdf: tuple[Path, Box], tmp_path: Path
) -> None:
    src, box = page_pdf
    out = tmp_path / "refused.pdf"
    with pytest.raises(EngineError, match="overlayText"):
        _redact(src, box, "Northwind withheld", out)
    assert not out.exists()
