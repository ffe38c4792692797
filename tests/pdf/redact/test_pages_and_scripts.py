"""Redaction on rotated and cropped pages, in right-to-left scripts, of alternate text,
and with pending redactions of the source.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.pdf import geometry
from tests.pdf.redact.helpers import (
    LINES,
    contains_word,
    pdftotext,
    redact_file,
    redaction,
    word_box,
    write_lines,
)


def test_pending_redaction_annotations_of_the_source_are_not_applied(
    tmp_path: Path,
) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    marked = page.add_redact_annot(pymupdf.Rect(page.get_text("words")[0][:4]))
    marked.update()
    document.save(tmp_path / "pending.pdf")
    out = redact_file(
        tmp_path / "pending.pdf", [redaction(0, word_box(page, "golf"))], "live"
    )
    words = pdftotext(out).split()
    assert "alpha" in words and "golf" not in words
    with pymupdf.open(out) as result:
        kinds = [annot.type[1] for annot in result[0].annots()]
    assert kinds == ["Redact"]


@pytest.mark.parametrize("rotation", [90, 270])
def test_redaction_on_a_rotated_page(tmp_path: Path, rotation: int) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES)
    page.set_rotation(rotation)
    document.save(tmp_path / "rotated.pdf")
    box = word_box(document[0], "secret")
    out = redact_file(tmp_path / "rotated.pdf", [redaction(0, box)])
    text = pdftotext(out).split()
    assert "secret" not in text
    assert text == [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
    ]
    with pymupdf.open(out) as result:  # the fill lands where the client saw the word
        pix = result[0].get_pixmap(dpi=72)
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 0, 0)


def test_redaction_on_a_rotated_page_with_an_offset_cropbox(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    page.set_cropbox(pymupdf.Rect(50, 80, 450, 700))
    page.set_rotation(90)
    write_lines(page, LINES, top=200, leading=20)
    document.save(tmp_path / "cropped.pdf")
    box = word_box(page, "secret")
    out = redact_file(tmp_path / "cropped.pdf", [redaction(0, box)])
    words = pdftotext(out).split()
    assert sorted(words) == sorted(
        LINES[0].split() + ["delta", "echo"] + LINES[2].split()
    )
    stem = tmp_path / "poppler"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "72",
            "-png",
            "-singlefile",
            "-cropbox",
            str(out),
            str(stem),
        ],
        check=True,
    )
    pix = pymupdf.Pixmap(f"{stem}.png")
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 0, 0)


def test_redaction_of_hebrew_words(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_htmlbox(
        pymupdf.Rect(50, 50, 350, 200),
        '<p dir="rtl" style="font-size:14pt">שלום עולם סודי מאוד</p>'
        '<p dir="rtl" style="font-size:14pt">שורה שנייה כאן</p>',
    )
    document.save(tmp_path / "hebrew.pdf")
    box = word_box(page, "סודי")
    out = redact_file(tmp_path / "hebrew.pdf", [redaction(0, box)])
    words = re.sub("[\u202a-\u202e]", "", pdftotext(out)).split()  # bidi marks
    assert "סודי" not in words
    assert {"שלום", "עולם", "מאוד", "שורה", "שנייה", "כאן"} <= set(words)


def test_redaction_of_an_arabic_word_on_one_of_four_identical_lines(
    tmp_path: Path, corpus: Path
) -> None:
    # Each line reads "اﻧﻮاع اﳋﻄﻮط اﻟﻌﺮﺑﻴﺔ" in presentation forms; the middle word
    # of the second line is made of three extracted pieces.
    source = corpus / "ArabicCIDTrueType.pdf"
    with pymupdf.open(source) as document:
        page = document[0]
        lines = page.get_text("rawdict")["blocks"]
        second = sorted(
            (line for block in lines for line in block.get("lines", ())),
            key=lambda line: line["bbox"][1],
        )[1]
        words = [
            w
            for w in page.get_text("words")
            if w[1] >= second["bbox"][1] - 1 and w[3] <= second["bbox"][3] + 1
        ]
        middle = [
            pymupdf.Rect(w[:4])
            for w in words
            if unicodedata.normalize("NFKC", w[4]) in ("ا", "خطو", "ط")
            and 350 < w[0] < 440
        ]
        area = pymupdf.Rect(middle[0])
        for piece in middle[1:]:
            area |= piece
        box = geometry.rect_to_box(geometry.page_rect_to_display(page, area))
    target = tmp_path / "arabic.pdf"
    target.write_bytes(source.read_bytes())
    out = redact_file(target, [redaction(0, box)])

    def count(text: str, word: str) -> int:
        return unicodedata.normalize("NFKC", text).count(
            unicodedata.normalize("NFKC", word)
        )

    before, after = pdftotext(source), pdftotext(out)
    assert count(before, "اﳋﻄﻮط") == 4
    assert count(after, "اﳋﻄﻮط") == 3
    assert count(after, "اﻧﻮاع") == count(after, "اﻟﻌﺮﺑﻴﺔ") == 4


def test_alternate_text_of_the_removed_glyphs_is_scrubbed(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "visible words", fontsize=12)
    document.save(tmp_path / "plain.pdf")
    with pikepdf.open(tmp_path / "plain.pdf") as pdf:
        first = pdf.pages[0]
        font = next(iter(first.Resources.Font.keys()))
        marked = (
            f"/Span <</ActualText (Topsecret) /Alt <FEFF0054006F0070007300650063"
            f"007200650074>>> BDC BT {font} 12 Tf 50 150 Td (Topsecret) Tj ET EMC"
        )
        first.contents_add(pikepdf.Stream(pdf, marked.encode()))
        pdf.save(tmp_path / "marked.pdf")
    with pymupdf.open(tmp_path / "marked.pdf") as marked_doc:
        box = word_box(marked_doc[0], "Topsecret")
    out = redact_file(tmp_path / "marked.pdf", [redaction(0, box)])
    assert "visible words" in pdftotext(out)
    assert not contains_word(out, "Topsecret")


# --- corpus ----------------------------------------------------------------------
