"""What the text diff reports as changed: modified, added and deleted words, lines
and pages, text shown through another font encoding or a FreeText annotation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf.compare import text_diff
from engines.pdf.types import Box
from tests.pdf.compare.helpers import fragments, make_pdf, poppler_box


def assert_same_box(ours: Box, poppler: Box) -> None:
    # Both measure glyph advances horizontally; heights come from different font
    # metrics (poppler's font bbox vs MuPDF's ascender/descender), so only overlap.
    assert ours.x == pytest.approx(poppler.x, abs=1.0)
    assert ours.x + ours.w == pytest.approx(poppler.x + poppler.w, abs=1.0)
    assert ours.y < poppler.y + poppler.h and poppler.y < ours.y + ours.h


def test_one_changed_word_is_a_modify_with_old_and_new_word(tmp_path: Path) -> None:
    left = make_pdf(
        tmp_path / "l.pdf", [["The quick brown fox jumps over the lazy dog."]]
    )
    right = make_pdf(
        tmp_path / "r.pdf", [["The quick red fox jumps over the lazy dog."]]
    )

    (change,) = text_diff(str(left), str(right))

    assert change.change_type == "MODIFY"
    assert fragments(change, "DELETE") == ["brown"]
    assert fragments(change, "ADD") == ["red"]
    assert change.left is not None and change.right is not None
    assert (change.left.text, change.right.text) == ("brown", "red")
    assert (change.left.page, change.right.page) == (0, 0)
    assert_same_box(change.left.position, poppler_box(left, "brown"))
    assert_same_box(change.right.position, poppler_box(right, "red"))


def test_inserted_sentence_is_an_add(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["First line stays.", "Last line stays."]])
    right = make_pdf(
        tmp_path / "r.pdf",
        [
            [
                "First line stays.",
                "A brand new sentence appears here.",
                "Last line stays.",
            ]
        ],
    )

    (change,) = text_diff(str(left), str(right))

    assert change.change_type == "ADD"
    assert change.left is None
    assert fragments(change, "ADD") == ["A brand new sentence appears here."]
    assert change.fragments[0].end_of_line is True
    assert change.right is not None
    ours, first, last = (
        change.right.position,
        poppler_box(right, "A"),
        poppler_box(right, "here."),
    )
    assert ours.x == pytest.approx(first.x, abs=1.0)
    assert ours.x + ours.w == pytest.approx(last.x + last.w, abs=1.0)
    assert ours.y < first.y + first.h and first.y < ours.y + ours.h


def test_deleted_paragraph_is_a_delete_with_one_fragment_per_line(
    tmp_path: Path,
) -> None:
    paragraph = ["This whole paragraph", "spans three lines", "and then disappears."]
    left = make_pdf(tmp_path / "l.pdf", [["Intro text.", *paragraph, "Closing words."]])
    right = make_pdf(tmp_path / "r.pdf", [["Intro text.", "Closing words."]])

    (change,) = text_diff(str(left), str(right))

    assert change.change_type == "DELETE"
    assert change.right is None
    assert fragments(change, "DELETE") == paragraph
    assert [f.end_of_line for f in change.fragments] == [True, True, True]
    assert {f.page for f in change.fragments} == {0}
    assert change.left is not None and change.left.text == "This whole paragraph"


def test_partial_line_change_is_not_end_of_line(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["keep this word here", "next line"]])
    right = make_pdf(tmp_path / "r.pdf", [["keep that word here", "next line"]])

    (change,) = text_diff(str(left), str(right))

    assert [f.end_of_line for f in change.fragments] == [False, False]


def test_inserted_page_is_an_add_on_that_page(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["page one text"], ["page two text"]])
    right = make_pdf(
        tmp_path / "r.pdf",
        [["page one text"], ["an inserted page", "with two lines"], ["page two text"]],
    )

    (change,) = text_diff(str(left), str(right))

    assert change.change_type == "ADD"
    assert fragments(change, "ADD") == ["an inserted page", "with two lines"]
    assert {f.page for f in change.fragments} == {1}
    assert change.right is not None and change.right.page == 1


def test_extra_pages_at_the_end_are_added(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["same first page"]])
    right = make_pdf(tmp_path / "r.pdf", [["same first page"], ["second"], ["third"]])

    changes = text_diff(str(left), str(right))

    assert [c.change_type for c in changes] == ["ADD"]
    assert [(f.text, f.page) for f in changes[0].fragments] == [
        ("second", 1),
        ("third", 2),
    ]
    assert text_diff(str(right), str(left))[0].change_type == "DELETE"


def test_swapped_pages_show_one_page_deleted_and_added_elsewhere(
    tmp_path: Path,
) -> None:
    first, second = ["alpha beta gamma"], ["delta epsilon zeta"]
    left = make_pdf(tmp_path / "l.pdf", [first, second])
    right = make_pdf(tmp_path / "r.pdf", [second, first])

    changes = text_diff(str(left), str(right))

    assert sorted(c.change_type for c in changes) == ["ADD", "DELETE"]
    deleted = [
        (f.text, f.page) for c in changes for f in c.fragments if f.type == "DELETE"
    ]
    added = [(f.text, f.page) for c in changes for f in c.fragments if f.type == "ADD"]
    assert deleted in ([("alpha beta gamma", 0)], [("delta epsilon zeta", 1)])
    assert added in ([("alpha beta gamma", 1)], [("delta epsilon zeta", 0)])
    assert deleted[0][0] == added[0][0]


def test_unreadable_document_is_an_engine_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"this is not a pdf")
    good = make_pdf(tmp_path / "good.pdf", [["text"]])

    with pytest.raises(EngineError):
        text_diff(str(bad), str(good))


@pytest.mark.corpus
def test_annotated_tracemonkey_differs_only_by_the_hello_annotation(
    corpus: Path, facts: dict[str, Any]
) -> None:
    changes = text_diff(
        str(corpus / "tracemonkey.pdf"), str(corpus / "tracemonkey-annotated-hello.pdf")
    )

    assert [c.change_type for c in changes] == ["ADD"]
    assert [(f.text, f.page) for f in changes[0].fragments] == [("Hello", 0)]
    right = changes[0].right
    assert right is not None
    # FACTS: the FreeText annotation's /Rect is ~[171, 472, 201, 492] (PDF space).
    height = facts["tracemonkey-annotated-hello.pdf"]["page_geometry"][0]["h"]
    assert right.position.x == pytest.approx(171.4, abs=1.5)
    assert right.position.y == pytest.approx(height - 492, abs=2)
    assert right.text == "Hello" and right.page == 0


def test_same_content_stream_with_a_changed_font_encoding_is_compared(
    tmp_path: Path,
) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["alpha beta"], ["no letter before b here"]])
    right = tmp_path / "r.pdf"
    with pymupdf.open(left) as doc:
        font_xref = doc[0].get_fonts()[0][0]
        # Code 97 ("a") now shows the glyph "z": same content stream, other text.
        doc.xref_set_key(
            font_xref,
            "Encoding",
            "<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[97/z]>>",
        )
        doc.save(right)
    with pymupdf.open(left) as a, pymupdf.open(right) as b:
        assert a[0].read_contents() == b[0].read_contents()

    changes = text_diff(str(left), str(right))

    assert [(fragments(c, "DELETE"), fragments(c, "ADD")) for c in changes] == [
        (["alpha beta"], ["zlphz betz"])
    ]


def test_free_text_annotation_counts_as_text(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["body text only"]])
    right = tmp_path / "r.pdf"
    with pymupdf.open(left) as doc:
        doc[0].add_freetext_annot(
            pymupdf.Rect(300, 300, 400, 330), "Reviewed", fontsize=12
        )
        doc.save(right)

    (change,) = text_diff(str(left), str(right))

    assert change.change_type == "ADD"
    assert fragments(change, "ADD") == ["Reviewed"]
    assert change.right is not None
    assert 300 <= change.right.position.x <= 330


def test_joined_words_are_a_change(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["the data base is large"]])
    right = make_pdf(tmp_path / "r.pdf", [["the database is large"]])

    (change,) = text_diff(str(left), str(right))

    assert (fragments(change, "DELETE"), fragments(change, "ADD")) == (
        ["data base"],
        ["database"],
    )
