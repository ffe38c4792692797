"""Office documents keep their words and say what they lost: metric-compatible
fonts, booleans as words, and the fidelity report. Workbooks are made with
openpyxl and read back with openpyxl; PDFs read with pdftotext and pdffonts."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Font

from engines.convert import Fidelity, Limits, detect, to_pdf
from engines.convert.office.fonts import (
    metric_compatible,
    report_fontconfig,
    stand_in,
)
from engines.convert.office.inventory import inventory
from engines.pdf.text import clear_cache
from engines.pdf.text.search import search_page
from engines.pdf.types import SearchQuery
from tests.convert.helpers import pdf_text

WRAPPED = (
    "The quarterly review covers revenue, staffing, supplier contracts, "
    "regional targets and the risks the board asked about in March; "
    "the final line names the appendix: ZEPHYRINE."
)


def convert(pool: Any, source: Path) -> Any:
    dest = source.with_suffix(".pdf")
    return to_pdf(
        str(source), detect(str(source)), str(dest), Limits(timeout=60), office=pool
    )


def pdffonts(path: str) -> str:
    return subprocess.run(
        ["pdffonts", path], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("Calibri", "Carlito"),
        ("Calibri Light", "Carlito"),
        ("Cambria", "Caladea"),
        ("Tahoma", "Tahoma"),
        ("Arial", "Liberation Sans"),
        ("Times New Roman", "Liberation Serif"),
        ("Courier New", "Liberation Mono"),
    ],
)
def test_office_default_fonts_have_metric_compatible_stand_ins(
    asked: str, expected: str
) -> None:
    used = stand_in(asked, report_fontconfig())

    assert used == expected
    assert metric_compatible(asked, used)


@pytest.mark.parametrize(
    ("asked", "family"),
    [
        ("Verdana", "DejaVu Sans"),
        ("Georgia", "Noto"),
        ("Segoe UI", "Noto"),
        ("Aptos", "Noto"),
    ],
)
def test_fonts_without_a_metric_compatible_stand_in_are_reported_so(
    asked: str, family: str
) -> None:
    # The README: Verdana is aliased to DejaVu Sans (the nearest widths);
    # Georgia, Segoe UI and Aptos have none in Debian: Noto is drawn instead.
    used = stand_in(asked, report_fontconfig())

    assert used is not None and used.startswith(family)
    assert not metric_compatible(asked, used)


def test_a_wrapped_calibri_cell_of_fixed_height_keeps_its_last_line(
    office_pool: Any, tmp_path: Path
) -> None:
    book = Workbook()
    sheet = book.active
    sheet.column_dimensions["A"].width = 30
    sheet["A1"] = WRAPPED
    sheet["A1"].font = Font(name="Calibri", size=11)
    sheet["A1"].alignment = Alignment(wrap_text=True, vertical="top")
    sheet.row_dimensions[1].height = 75  # what Excel needs for it, in Calibri
    book.save(tmp_path / "wrapped.xlsx")

    rendition = convert(office_pool, tmp_path / "wrapped.xlsx")

    # In Noto Sans (wider) the last line falls below the row and is not drawn.
    assert "ZEPHYRINE" in pdf_text(rendition.path)
    assert "Carlito" in pdffonts(rendition.path)
    report = rendition.fidelity
    assert ("Calibri", "Carlito", True) in {
        (s.asked, s.used, s.metric_compatible) for s in report.substitutions
    }
    assert "Carlito" in report.fonts_used


def workbook_with_booleans_and_a_hidden_sheet(path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["flag", "name"])
    sheet.append([True, "alpha"])
    sheet.append([False, "beta"])
    secret = book.create_sheet("Secret plans")
    secret["A1"] = "not printed"
    secret.sheet_state = "hidden"
    book.save(path)


def test_true_and_false_cells_show_as_words(office_pool: Any, tmp_path: Path) -> None:
    source = tmp_path / "flags.xlsx"
    workbook_with_booleans_and_a_hidden_sheet(source)
    cells = [row[0] for row in load_workbook(source).active.iter_rows(values_only=True)]
    assert cells == ["flag", True, False]  # openpyxl's reading of the source

    rendition = convert(office_pool, source)

    words = pdf_text(rendition.path).split()
    assert "TRUE" in words and "FALSE" in words
    assert "0" not in words and "1" not in words
    # The source itself is untouched.
    assert [r[0] for r in load_workbook(source).active.iter_rows(values_only=True)] == [
        "flag",
        True,
        False,
    ]


def test_the_report_names_hidden_sheets_comments_macros_and_fonts(
    tmp_path: Path,
) -> None:
    source = tmp_path / "book.xlsx"
    workbook_with_booleans_and_a_hidden_sheet(source)
    book = load_workbook(source)
    from openpyxl.comments import Comment

    book.active["B2"].comment = Comment("check this", "Ann")
    book.active["B2"].font = Font(name="Cambria")
    book.save(source)
    with zipfile.ZipFile(source, "a") as zf:
        zf.writestr("xl/vbaProject.bin", b"\0" * 64)  # a macro project's part
        zf.writestr("xl/externalLinks/externalLink1.xml", b"<externalLink/>")

    found = inventory(str(source), detect(str(source)))

    kinds = {part.kind: part for part in found.skipped}
    assert kinds["hidden_sheets"].count == 1
    assert kinds["hidden_sheets"].names == ("Secret plans",)
    assert kinds["comments"].count == 1
    assert kinds["macros"].count == 1
    assert kinds["external_links"].count == 1
    assert {"Calibri", "Cambria"} <= set(found.fonts)


def test_the_report_round_trips_through_json() -> None:
    from engines.convert.fidelity import EncodingChoice, FontSubstitution, SkippedPart

    report = Fidelity(
        pages=3,
        encoding=EncodingChoice("cp1253", "detected", 0.99, "Greek"),
        fonts_asked=("Calibri",),
        fonts_used=("Carlito",),
        substitutions=(FontSubstitution("Calibri", "Carlito", True),),
        skipped=(SkippedPart("hidden_sheets", 1, ("Secret",)),),
    )

    stored = json.loads(json.dumps(report.to_json()))

    assert Fidelity.from_json(stored) == report


def test_an_arabic_ligature_in_a_csv_reads_in_logical_order(
    office_pool: Any, tmp_path: Path
) -> None:
    # "لا" (lam-alef) is drawn as one glyph; extractors used to give "ال".
    source = tmp_path / "creed.csv"
    source.write_text("id,text,city\n1,لا إله,القاهرة\n2,مرحبا بالعالم,Paris\n")

    rendition = convert(office_pool, source)

    words = pdf_text(rendition.path).replace("\u202b", " ").replace("\u202c", " ")
    assert "لا" in words.split() and "ال" not in words.split()
    # No other word of the table holds lam before alef: only the ligature.
    clear_cache()
    assert search_page(rendition.path, 0, SearchQuery("لا"))
