"""What a rendition does not show, as the README's formats section says:
comments, hidden text, speaker notes, hidden sheets and hidden slides. Each
source is read back by its own library (python-docx, python-pptx, openpyxl)
to show the words are there; the PDF is read by poppler."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docx
import openpyxl
import pptx
import pymupdf

from engines.convert import Limits, detect, to_pdf
from tests.convert.helpers import pdf_text


def rendered(pool: Any, source: Path) -> str:
    dest = source.with_suffix(".pdf")
    to_pdf(str(source), detect(str(source)), str(dest), Limits(timeout=60), office=pool)
    return pdf_text(dest)


def test_comments_and_hidden_text_of_a_word_file_are_not_shown(
    office_pool: Any, tmp_path: Path
) -> None:
    source = tmp_path / "remarks.docx"
    document = docx.Document()
    paragraph = document.add_paragraph("The budget is approved ")
    paragraph.add_run("PELICANHIDDEN").font.hidden = True
    document.add_comment(paragraph.runs[0], text="GIRAFFECOMMENT", author="Ann")
    document.save(str(source))
    read = docx.Document(str(source))
    hidden = [run for run in read.paragraphs[0].runs if run.text == "PELICANHIDDEN"]
    assert hidden and hidden[0].font.hidden
    assert [c.text for c in read.comments] == ["GIRAFFECOMMENT"]

    text = rendered(office_pool, source)

    assert "budget is approved" in text
    assert "PELICANHIDDEN" not in text and "GIRAFFECOMMENT" not in text


def test_speaker_notes_and_hidden_slides_are_not_shown(
    office_pool: Any, tmp_path: Path
) -> None:
    source = tmp_path / "talk.pptx"
    deck = pptx.Presentation()
    shown = deck.slides.add_slide(deck.slide_layouts[1])
    shown.shapes.title.text = "Quarterly roadmap"
    shown.notes_slide.notes_text_frame.text = "OCELOTNOTES"
    hidden = deck.slides.add_slide(deck.slide_layouts[1])
    hidden.shapes.title.text = "WALRUSHIDDENSLIDE"
    hidden._element.set("show", "0")  # python-pptx has no property for it
    deck.save(str(source))
    read = pptx.Presentation(str(source))
    assert read.slides[0].notes_slide.notes_text_frame.text == "OCELOTNOTES"
    assert read.slides[1]._element.get("show") == "0"

    text = rendered(office_pool, source)

    assert "Quarterly roadmap" in text
    assert "OCELOTNOTES" not in text and "WALRUSHIDDENSLIDE" not in text


def test_a_hidden_sheet_is_not_shown(office_pool: Any, tmp_path: Path) -> None:
    source = tmp_path / "book.xlsx"
    book = openpyxl.Workbook()
    book.active["A1"] = "visible figures"
    secret = book.create_sheet("Secret")
    secret["A1"] = "MARMOTSECRET"
    secret.sheet_state = "hidden"
    book.save(source)
    assert openpyxl.load_workbook(source)["Secret"]["A1"].value == "MARMOTSECRET"

    text = rendered(office_pool, source)

    assert "visible figures" in text and "MARMOTSECRET" not in text


def test_a_chart_is_drawn_and_its_data_is_not_shown(
    office_pool: Any, tmp_path: Path
) -> None:
    """A slide's chart keeps its data in a workbook inside the file: the
    rendition draws the chart (title, categories, bars) and shows none of the
    values (no data labels asked; 17.3 and 42.7 are no axis tick)."""
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    source = tmp_path / "chart.pptx"
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Quokka census"
    data = CategoryChartData()
    data.categories = ["Rottnest", "Bald Island"]
    data.add_series("Counted", (17.3, 42.7))
    slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED,
        Inches(1),
        Inches(1.5),
        Inches(8),
        Inches(5),
        data,
    )
    deck.save(str(source))
    plot = pptx.Presentation(str(source)).slides[0].shapes[1].chart.plots[0]
    assert list(plot.categories) == ["Rottnest", "Bald Island"]
    assert plot.series[0].values == (17.3, 42.7)

    text = rendered(office_pool, source)
    with pymupdf.open(str(source.with_suffix(".pdf"))) as pdf:
        filled = [d for d in pdf[0].get_drawings() if d.get("fill") is not None]

    assert "Quokka census" in text
    assert "Rottnest" in text and "Bald Island" in text
    assert "17.3" not in text and "42.7" not in text
    assert len(filled) >= 2, "the two columns are drawn"
