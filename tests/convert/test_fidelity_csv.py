"""A CSV cell longer than its column, and a column of very long text, reach
the rendition whole: every word the csv module reads in the source is a word
poppler reads in the PDF, drawn inside its page. Before, Calc sized such
columns far wider than the page and cut them at its edge."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from engines.convert import Limits, detect, to_pdf
from engines.convert.office.server import column_widths
from tests.convert.helpers import page_sizes
from tests.pdf.text.helpers import poppler_words


def words(prefix: str, count: int) -> str:
    """`count` distinct words, none a prefix of another."""
    return " ".join(f"{prefix}{n}z" for n in range(count))


# A long cell before a non-empty cell, a column of very long text, and
# short rows around them (so that the file reads as a table).
ROWS = [
    ["key", "note", "next", "remark"],
    ["kone", words("alpha", 36), "neighbour", "brief"],
    ["ktwo", "short", "bravo", words("omega", 160)],
    ["kthree", "plain", "charlie", words("sigma", 90)],
    ["kfour", "tiny", "delta", "last"],
]


def csv_bytes() -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(ROWS)
    return buffer.getvalue().encode()


def source_words(data: bytes) -> list[str]:
    """The words of the cells of the CSV `data`, as the csv module reads them."""
    rows = list(csv.reader(io.StringIO(data.decode())))
    assert rows == ROWS
    return [word for row in rows for cell in row for word in cell.split()]


def converted(pool: Any, source: Path, rows: list[list[str]] | None = None) -> Path:
    """`rows` written to `source` (if given), read as a CSV, made into a PDF."""
    if rows is not None:
        with source.open("w", newline="", encoding="utf-8") as out:
            csv.writer(out).writerows(rows)
    assert detect(str(source)).mime_type == "text/csv"
    pdf = source.with_suffix(".pdf")
    to_pdf(str(source), detect(str(source)), str(pdf), Limits(timeout=60), office=pool)
    return pdf


def drawn_words(pdf: Path) -> set[str]:
    """Every word poppler reads on every page of `pdf`."""
    return {
        word
        for number in range(len(page_sizes(pdf)))
        for word, _ in poppler_words(str(pdf), number)
    }


def test_every_word_of_a_long_csv_cell_is_drawn_inside_the_page(
    office_pool: Any, tmp_path: Path
) -> None:
    source = tmp_path / "notes.csv"
    source.write_bytes(csv_bytes())
    expected = source_words(source.read_bytes())

    pdf = converted(office_pool, source)

    drawn: list[str] = []
    outside = []
    for number, (width, height) in enumerate(page_sizes(pdf)):
        for word, box in poppler_words(str(pdf), number):
            drawn.append(word)
            inside = box.x >= 0 and box.y >= 0
            if not (inside and box.x + box.w <= width and box.y + box.h <= height):
                outside.append((number, word))
    missing = [word for word in expected if word not in drawn]
    assert not missing, f"{len(missing)} of {len(expected)} words: {missing[:10]}"
    assert not outside
    # Each word once: no cell is drawn twice, none is cut into pieces.
    assert all(drawn.count(word) == 1 for word in expected)


def test_a_table_wider_than_a_portrait_page_is_printed_landscape(
    office_pool: Any, tmp_path: Path
) -> None:
    # Four columns of about 6 cm each: wider than a portrait A4 page's
    # printable width (17 cm), narrower than a landscape one's (25.7 cm).
    rows = [[words(f"c{col}r{row}w", 4) for col in range(4)] for row in range(6)]

    pdf = converted(office_pool, tmp_path / "wide.csv", rows)

    sizes = page_sizes(pdf)
    assert [width > height for width, height in sizes] == [True]
    tops = {word: box.y for word, box in poppler_words(str(pdf))}
    for row in rows:
        # The whole row is drawn, on one line of the one page.
        line = {round(tops[word]) for cell in row for word in cell.split()}
        assert len(line) == 1, row


def test_long_columns_share_the_page_and_short_ones_keep_their_width() -> None:
    # 1/100 mm: a 17 cm printable width; Calc made the first column 2 cm
    # wide for a 1 cm text, the next two hold texts of 58 cm.
    widths, capped = column_widths([2000, 2000, 2000], [1000, 58000, 58000], 17000)
    assert widths == [2000, 7500, 7500] and capped == [False, True, True]
    # One long column beside a short one: all the rest of the page, not half.
    widths, capped = column_widths([2000, 2000], [1000, 58000], 17000)
    assert widths == [2000, 15000] and capped == [False, True]
    # Five long columns: each a quarter of the page (the rest on the next pages).
    widths, capped = column_widths([2000] * 5, [58000] * 5, 17000)
    assert widths == [4250] * 5 and all(capped)
    # Nothing wider than half the page: every column as wide as its text.
    assert column_widths([2000, 2000], [8000, 500], 17000) == (
        [8000, 2000],
        [False, False],
    )


@pytest.mark.xfail(
    strict=True,
    reason="Calc never splits a row over two pages: a wrapped cell taller than "
    "the page is cut at its bottom edge (a limit the README states)",
)
def test_a_cell_taller_than_a_page_once_wrapped_loses_no_word(
    office_pool: Any, tmp_path: Path
) -> None:
    # 3,000 short words (about 18 KB) in one cell, after enough short rows
    # that the file is read as a CSV: wrapped at the page's width, the row is
    # several pages tall.
    long_cell = words("tall", 3000)
    rows = [["key", "note"], *([f"r{n}", f"s{n}"] for n in range(100))]
    rows += [["kone", long_cell], ["ktwo", "short"]]

    drawn = drawn_words(converted(office_pool, tmp_path / "tall.csv", rows))

    missing = [word for word in long_cell.split() if word not in drawn]
    assert not missing, f"{len(missing)} of 3000 words missing: {missing[:3]}"


def test_a_csv_wider_than_the_fitted_columns_keeps_calcs_widths_and_its_words(
    office_pool: Any, tmp_path: Path
) -> None:
    """Past `MAX_FITTED_COLUMNS` the columns are left as Calc makes them (each
    as wide as its text): the conversion still ends and draws every word, and
    a cell wider than half the page is not wrapped (fitted, it would be)."""
    from engines.convert.office.server import MAX_FITTED_COLUMNS

    columns = MAX_FITTED_COLUMNS + 20
    rows = [[f"r{r}c{c}x" for c in range(columns)] for r in range(12)]
    long_cell = words("broad", 20)  # about 13 cm: over half, under a page
    rows[1][0] = long_cell

    pdf = converted(office_pool, tmp_path / "wide.csv", rows)

    drawn = drawn_words(pdf)
    assert not [
        cell for row in rows for cell in row if cell != long_cell and cell not in drawn
    ]
    tops = {
        round(box.y)
        for word, box in poppler_words(str(pdf))
        if word.startswith("broad")
    }
    assert len(tops) == 1, "Calc's width: the long cell stays on one line"
