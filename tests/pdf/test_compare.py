"""The comparison engine: word-level text diff and pixel comparison."""

from __future__ import annotations

import random
import re
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from documents.pdf.compare import parse_color, pixel_compare, text_diff
from documents.pdf.compare.sequence import matching_blocks
from documents.pdf.types import Box, CompareStyle, EngineError, Rgb, TextChange

LINE_HEIGHT = 16.0
TOP = 72.0


def make_pdf(
    path: Path, pages: Sequence[Sequence[str]], *, rotate: int = 0, fontsize: float = 11
) -> Path:
    """One line of text per string, from the top-left margin down (Helvetica)."""
    with pymupdf.open() as doc:
        for lines in pages:
            page = doc.new_page(width=595, height=842)
            for n, line in enumerate(lines):
                page.insert_text((72, TOP + n * LINE_HEIGHT), line, fontsize=fontsize)
            page.set_rotation(rotate)
        doc.save(path)
    return path


def make_paragraph_pdf(path: Path, text: str, width: float) -> Path:
    """`text` flowed into a box `width` points wide (line breaks depend on it)."""
    with pymupdf.open() as doc:
        page = doc.new_page(width=595, height=842)
        rect = pymupdf.Rect(72, 72, 72 + width, 770)
        assert page.insert_textbox(rect, text, fontsize=11) >= 0
        doc.save(path)
    return path


def poppler_words(path: Path) -> list[tuple[int, str, Box]]:
    """(0-based page, word, box in displayed space) as pdftotext -bbox sees them."""
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: list[tuple[int, str, Box]] = []
    for page, body in enumerate(re.findall(r"<page .*?</page>", html, re.S)):
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
            r"(.*?)</word>",
            body,
        ):
            box = Box(
                float(x0), float(y0), float(x1) - float(x0), float(y1) - float(y0)
            )
            found.append((page, word, box))
    return found


def poppler_box(path: Path, word: str) -> Box:
    (box,) = [b for _, w, b in poppler_words(path) if w == word]
    return box


def fragments(change: TextChange, kind: str) -> list[str]:
    return [f.text for f in change.fragments if f.type == kind]


def assert_same_box(ours: Box, poppler: Box) -> None:
    # Both measure glyph advances horizontally; heights come from different font
    # metrics (poppler's font bbox vs MuPDF's ascender/descender), so only overlap.
    assert ours.x == pytest.approx(poppler.x, abs=1.0)
    assert ours.x + ours.w == pytest.approx(poppler.x + poppler.w, abs=1.0)
    assert ours.y < poppler.y + poppler.h and poppler.y < ours.y + ours.h


# ---------------------------------------------------------------------------
# text_diff on generated documents


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


def test_position_text_describes_the_glyphs(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["alpha beta gamma delta"]], fontsize=14)
    right = make_pdf(tmp_path / "r.pdf", [["alpha bravo charlie delta"]], fontsize=14)

    (change,) = text_diff(str(left), str(right))

    right_text = change.right
    assert right_text is not None
    assert right_text.text == "bravo charlie"
    assert len(right_text.individual_widths) == len("bravo charlie")
    assert sum(right_text.individual_widths) == pytest.approx(
        right_text.position.w, abs=0.01
    )
    assert all(w >= 0 for w in right_text.individual_widths)
    assert right_text.font == "Helvetica"
    assert right_text.font_size == pytest.approx(14)
    assert right_text.rotation == 0
    assert right_text.right_to_left is False
    assert fragments(change, "ADD") == ["bravo charlie"]


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


def test_rotated_page_positions_are_in_displayed_space(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["rotated page with old text"]], rotate=90)
    right = make_pdf(tmp_path / "r.pdf", [["rotated page with new text"]], rotate=90)

    (change,) = text_diff(str(left), str(right))

    assert change.right is not None
    ours, poppler = change.right.position, poppler_box(right, "new")
    # On a page turned by 90° the line runs downwards: compare along y.
    assert ours.y == pytest.approx(poppler.y, abs=1.0)
    assert ours.y + ours.h == pytest.approx(poppler.y + poppler.h, abs=1.0)
    assert ours.x < poppler.x + poppler.w and poppler.x < ours.x + ours.w
    assert change.right.rotation == 90


def test_right_to_left_text_is_flagged(tmp_path: Path) -> None:
    hebrew = pymupdf.Font(script=5)  # MuPDF's built-in Noto Serif Hebrew
    paths = []
    for name, middle in (("l", "beta"), ("r", "\u05e9\u05dc\u05d5\u05dd")):
        with pymupdf.open() as doc:
            page = doc.new_page()
            page.insert_font(fontname="heb", fontbuffer=hebrew.buffer)
            for x, word in ((72, "alpha"), (150, middle), (250, "gamma")):
                font = "heb" if word.isalpha() and not word.isascii() else "helv"
                page.insert_text((x, 100), word, fontname=font, fontsize=12)
            doc.save(tmp_path / f"{name}.pdf")
        paths.append(str(tmp_path / f"{name}.pdf"))

    (change,) = text_diff(*paths)

    assert change.left is not None and change.right is not None
    assert change.left.right_to_left is False
    assert change.right.right_to_left is True


def test_unreadable_document_is_an_engine_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"this is not a pdf")
    good = make_pdf(tmp_path / "good.pdf", [["text"]])

    with pytest.raises(EngineError):
        text_diff(str(bad), str(good))


# ---------------------------------------------------------------------------
# The sequence diff behind text_diff


def check_blocks(a: list[int], b: list[int], blocks: list[tuple[int, int, int]]) -> int:
    """Assert the runs are real and ordered; return how many tokens they match."""
    last_i = last_j = 0
    for i, j, n in blocks:
        assert i >= last_i and j >= last_j and n > 0
        assert a[i : i + n] == b[j : j + n]
        last_i, last_j = i + n, j + n
    return sum(n for _, _, n in blocks)


def test_sequence_diff_of_a_long_text_with_few_edits_is_exact() -> None:
    rng = random.Random(7)
    a = [rng.randrange(20_000) for _ in range(300_000)]
    b = list(a)
    for _ in range(20):
        b[rng.randrange(len(b))] = -1  # 20 replaced words
    del b[150_000:150_010]  # and 10 deleted

    start = time.perf_counter()
    matched = check_blocks(a, b, matching_blocks(a, b))

    assert time.perf_counter() - start < 5
    assert matched >= len(a) - 30


def test_sequence_diff_of_unrelated_long_texts_is_fast() -> None:
    rng = random.Random(8)
    a = [rng.randrange(5_000) for _ in range(100_000)]
    b = [rng.randrange(5_000) for _ in range(100_000)]

    start = time.perf_counter()
    check_blocks(a, b, matching_blocks(a, b))

    assert time.perf_counter() - start < 10


# ---------------------------------------------------------------------------
# text_diff on the corpus


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


@pytest.mark.corpus
def test_refcard_a4_and_letter_typesettings_have_no_text_changes(corpus: Path) -> None:
    changes = text_diff(
        str(corpus / "refcard-a4.pdf"), str(corpus / "refcard-letter.pdf")
    )

    # Same words, different paper and some different line breaks (measured: 0).
    assert len(changes) <= 2


# ---------------------------------------------------------------------------
# pixel_compare


def make_shapes_pdf(
    path: Path, pages: Sequence[Sequence[tuple[pymupdf.Rect, float]]]
) -> Path:
    """Pages with grey filled rectangles, (rect, grey level 0 = black .. 1 = white)."""
    with pymupdf.open() as doc:
        for shapes in pages:
            page = doc.new_page(width=200, height=200)
            for rect, grey in shapes:
                page.draw_rect(rect, color=None, fill=(grey, grey, grey))
        doc.save(path)
    return path


def rendered(path: Path, page: int = 0, dpi: int = 72) -> pymupdf.Pixmap:
    """A page of `path` rendered by poppler (independent of the engine)."""
    prefix = path.with_suffix("")
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page + 1),
            "-l",
            str(page + 1),
            "-singlefile",
            "-png",
            str(path),
            str(prefix),
        ],
        check=True,
    )
    return pymupdf.Pixmap(str(prefix) + ".png")


def pixel(pix: pymupdf.Pixmap, x: float, y: float) -> tuple[int, ...]:
    """The colour at (x, y), each channel rounded to a multiple of 5: renderers'
    colour conversions differ by a unit or two."""
    return tuple(5 * round(c / 5) for c in pix.pixel(int(x), int(y))[:3])


def page_count(path: Path) -> int:
    info = subprocess.run(
        ["pdfinfo", str(path)], check=True, capture_output=True, text=True
    ).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]


SQUARE_A = pymupdf.Rect(20, 20, 80, 80)
SQUARE_B = pymupdf.Rect(120, 120, 180, 180)


def test_pixel_compare_highlights_only_where_the_pages_differ(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0), (SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"

    written = pixel_compare(
        str(left), str(right), str(dest), CompareStyle(fuzz=0), dpi=72
    )

    assert written == 1 == page_count(dest)
    image = rendered(dest)
    assert pixel(image, 150, 150) == (255, 0, 0)  # only on the right: highlighted
    assert pixel(image, 50, 50) == (0, 0, 0)  # common: left as is
    assert pixel(image, 100, 30) == (255, 255, 255)  # background


def test_pixel_compare_uses_the_highlight_colour(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"
    style = CompareStyle(highlight=parse_color("#00ff00"))

    pixel_compare(str(left), str(right), str(dest), style, dpi=72)

    assert pixel(rendered(dest), 150, 150) == (0, 255, 0)


def test_fuzz_tolerates_a_slightly_different_grey(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0.50)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0.51)]])  # ~1 % apart
    exact, tolerant = tmp_path / "exact.pdf", tmp_path / "tolerant.pdf"

    pixel_compare(str(left), str(right), str(exact), CompareStyle(fuzz=0), dpi=72)
    pixel_compare(str(left), str(right), str(tolerant), CompareStyle(fuzz=3), dpi=72)

    assert pixel(rendered(exact), 50, 50) == (255, 0, 0)
    grey = pixel(rendered(tolerant), 50, 50)
    assert grey != (255, 0, 0)
    assert all(abs(c - 130) <= 5 for c in grey)  # the right page's 0.51 grey


def test_lowlight_tints_common_content(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0), (SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"
    style = CompareStyle(fuzz=3, lowlight=Rgb(0, 0, 255))

    pixel_compare(str(left), str(right), str(dest), style, dpi=72)

    image = rendered(dest)
    assert pixel(image, 50, 50) == (0, 0, 255)  # black common content → lowlight
    assert pixel(image, 150, 150) == (255, 0, 0)
    assert pixel(image, 100, 30) == (255, 255, 255)  # white stays white


def test_page_on_one_side_only_is_entirely_highlighted(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)], [(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0)]])
    dest = tmp_path / "out.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=72)

    assert written == 2 == page_count(dest)
    assert pixel(rendered(dest, 0), 50, 50) == (0, 0, 0)
    assert pixel(rendered(dest, 1), 50, 50) == (255, 0, 0)
    assert pixel(rendered(dest, 1), 150, 150) == (255, 255, 255)


def test_pixel_compare_page_is_as_large_as_the_larger_page(tmp_path: Path) -> None:
    left = tmp_path / "l.pdf"
    with pymupdf.open() as doc:
        doc.new_page(width=300, height=100)
        doc.save(left)
    right = make_shapes_pdf(tmp_path / "r.pdf", [[]])
    dest = tmp_path / "out.pdf"

    pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=72)

    with pymupdf.open(dest) as out:
        assert (out[0].rect.width, out[0].rect.height) == (300, 200)


def test_long_pixel_comparison_is_one_valid_pdf(tmp_path: Path) -> None:
    # More pages than one in-memory chunk, so the chunks are joined.
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]] * 40)
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_B, 0)]] * 41)
    dest = tmp_path / "out.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=24)

    assert written == 41 == page_count(dest)
    subprocess.run(["qpdf", "--check", str(dest)], check=True, capture_output=True)
    assert pixel(rendered(dest, 40, dpi=72), 150, 150) == (255, 0, 0)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".compare-")]


@pytest.mark.corpus
def test_annotated_tracemonkey_pixels_differ_only_on_page_one(
    corpus: Path, tmp_path: Path
) -> None:
    dest = tmp_path / "out.pdf"
    left, right = corpus / "tracemonkey.pdf", corpus / "tracemonkey-annotated-hello.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=36)

    assert written == 14 == page_count(dest)
    with pymupdf.open(dest) as out:
        red = [_red_pixels(page.get_pixmap(dpi=36)) for page in out]
    assert red[0] > 0
    assert red[1:] == [0] * 13


def _red_pixels(pix: pymupdf.Pixmap) -> int:
    samples, n = pix.samples, pix.n
    return sum(
        1
        for k in range(0, len(samples), n)
        if samples[k] > 200 and samples[k + 1] < 60 and samples[k + 2] < 60
    )


# ---------------------------------------------------------------------------
# parse_color


@pytest.mark.parametrize("value", ["ff8000", "FF8000", "#ff8000", "#Ff8000"])
def test_parse_color_accepts_hex_with_or_without_hash(value: str) -> None:
    assert parse_color(value) == Rgb(255, 128, 0)


@pytest.mark.parametrize("value", ["", "red", "#fff", "ff00001", "##ff0000", "gg0000"])
def test_parse_color_rejects_anything_else(value: str) -> None:
    with pytest.raises(ValueError):
        parse_color(value)


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


def test_compound_broken_at_its_hyphen_equals_the_unbroken_compound(
    tmp_path: Path,
) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["a well-", "known result"]])
    right = make_pdf(tmp_path / "r.pdf", [["a well-known result"]])

    assert text_diff(str(left), str(right)) == []


def test_joined_words_are_a_change(tmp_path: Path) -> None:
    left = make_pdf(tmp_path / "l.pdf", [["the data base is large"]])
    right = make_pdf(tmp_path / "r.pdf", [["the database is large"]])

    (change,) = text_diff(str(left), str(right))

    assert (fragments(change, "DELETE"), fragments(change, "ADD")) == (
        ["data base"],
        ["database"],
    )
