"""What the text diff does not call a change: the same words, however they are
typeset (line breaks, hyphenation, paper size).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf.compare import text_diff
from tests.pdf.compare.helpers import make_pdf, poppler_words


def make_paragraph_pdf(path: Path, text: str, width: float) -> Path:
    """`text` flowed into a box `width` points wide (line breaks depend on it)."""
    with pymupdf.open() as doc:
        page = doc.new_page(width=595, height=842)
        rect = pymupdf.Rect(72, 72, 72 + width, 770)
        assert page.insert_textbox(rect, text, fontsize=11) >= 0
        doc.save(path)
    return path


def test_identical_documents_have_no_changes(tmp_path: Path) -> None:
    pages = [["Some text on a page", "and a second line"], ["another page"]]
    left = make_pdf(tmp_path / "l.pdf", pages)
    right = make_pdf(tmp_path / "r.pdf", pages)

    assert text_diff(str(left), str(left)) == []
    assert text_diff(str(left), str(right)) == []


def test_reflowed_text_with_the_same_words_has_no_changes(tmp_path: Path) -> None:
    text = (
        "Comparison of documents must not depend on where lines break: the same "
        "words typeset in a narrower column wrap differently, and a reader would "
        "call the two versions identical. "
    ) * 4
    left = make_paragraph_pdf(tmp_path / "l.pdf", text, 450)
    right = make_paragraph_pdf(tmp_path / "r.pdf", text, 230)
    assert len(poppler_words(left)) == len(poppler_words(right))
    with pymupdf.open(left) as a, pymupdf.open(right) as b:
        assert a[0].get_text() != b[0].get_text()  # the line breaks do differ

    assert text_diff(str(left), str(right)) == []


def test_word_hyphenated_across_a_line_break_equals_the_unbroken_word(
    tmp_path: Path,
) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["a careful compar-", "ison of two texts"]])
    right = make_pdf(tmp_path / "r.pdf", [["a careful comparison", "of two texts"]])

    assert text_diff(str(left), str(right)) == []


@pytest.mark.corpus
def test_refcard_a4_and_letter_typesettings_have_no_text_changes(corpus: Path) -> None:
    changes = text_diff(
        str(corpus / "refcard-a4.pdf"), str(corpus / "refcard-letter.pdf")
    )

    # Same words, different paper and some different line breaks (measured: 0).
    assert len(changes) <= 2


def test_compound_broken_at_its_hyphen_equals_the_unbroken_compound(
    tmp_path: Path,
) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["a well-", "known result"]])
    right = make_pdf(tmp_path / "r.pdf", [["a well-known result"]])

    assert text_diff(str(left), str(right)) == []
