"""Text search, line listing and rendering (documents/pdf/text.py).

Generated PDFs use fonts that PyMuPDF ships (Noto via `Font(script=...)`), so the
tests need nothing from the system. Geometry is checked against `pdftotext -bbox`
(poppler), an independent extractor that reports boxes in displayed space.
"""

from __future__ import annotations

import gc
import io
import re
import struct
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pymupdf
import pytest

from documents.pdf import geometry, text
from documents.pdf.text import PageOutOfRange, SearchError
from documents.pdf.text.extract import extract_page
from documents.pdf.types import Box, PositionText, SearchQuery, UnsupportedDocument
from tests import corpus as corpus_module

LATIN = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_LATIN)
HEBREW = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_HEBREW)
ARABIC = pymupdf.Font(script=pymupdf.mupdf.UCDN_SCRIPT_ARABIC)

Writer = Callable[[pymupdf.Document], object]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    text.clear_cache()


def write(
    page: pymupdf.Page,
    origin: tuple[float, float],
    content: str,
    *,
    font: pymupdf.Font = LATIN,
    size: float = 12,
    right_to_left: bool = False,
) -> None:
    writer = pymupdf.TextWriter(page.rect)
    writer.append(
        origin, content, font=font, fontsize=size, right_to_left=right_to_left
    )
    writer.write_text(page)


def make_pdf(tmp_path: Path, build: Writer, name: str = "doc.pdf") -> str:
    document = pymupdf.open()
    build(document)
    path = tmp_path / name
    document.save(path)
    return str(path)


def search(path: str, query: str, page: int = 0, **flags: bool) -> list[PositionText]:
    return text.search_page(path, page, SearchQuery(query, **flags))


def poppler_words(path: str, page: int = 0) -> list[tuple[str, Box]]:
    """Words with boxes from `pdftotext -bbox` (displayed space, MediaBox origin)."""
    xml = subprocess.run(
        ["pdftotext", "-f", str(page + 1), "-l", str(page + 1), "-bbox", path, "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return poppler_words_from(xml)


def poppler_words_from(xml: str) -> list[tuple[str, Box]]:
    words = []
    pattern = (
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<'
    )
    for x0, y0, x1, y1, word in re.findall(pattern, xml):
        x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
        words.append((word, Box(x0, y0, x1 - x0, y1 - y0)))
    return words


def poppler_box(path: str, word: str, page: int = 0) -> Box:
    (box,) = [b for w, b in poppler_words(path, page) if w == word]
    return box


def shared_fractions(a: Box, b: Box) -> tuple[float, float]:
    """Intersection area as a fraction of a's area and of b's area."""
    width = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    height = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    shared = max(0.0, width) * max(0.0, height)
    return shared / (a.w * a.h), shared / (b.w * b.h)


def same_glyphs(a: Box, b: Box) -> bool:
    """Each box has most of its area in common with the other: MuPDF and poppler
    agree on the glyphs' advance but use different font ascent/descent, so heights
    differ by up to a third."""
    return min(shared_fractions(a, b)) >= 0.5


def assert_widths_fit(result: PositionText) -> None:
    assert len(result.individual_widths) == len(result.text)
    assert all(w >= 0 for w in result.individual_widths)
    along = result.position.h if result.rotation in (90, 270) else result.position.w
    assert sum(result.individual_widths) == pytest.approx(along, abs=0.01)


# --- folding -------------------------------------------------------------------


@pytest.fixture
def folding_pdf(tmp_path: Path) -> str:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (72, 100), "Le Café de la Straße")
        write(page, (72, 130), "ﬁnance ofﬁce")  # U+FB01 ligature characters
        write(page, (72, 160), "resume résumé RÉSUMÉ")

    return make_pdf(tmp_path, build)


@pytest.mark.parametrize(
    ("query", "flags", "expected"),
    [
        ("cafe", {}, ["Café"]),
        ("CAFÉ", {}, ["Café"]),
        ("Cafe", {"case_sensitive": True}, ["Café"]),
        ("cafe", {"case_sensitive": True}, []),
        ("cafe", {"accent_sensitive": True}, []),
        ("café", {"accent_sensitive": True}, ["Café"]),
        ("STRASSE", {}, ["Straße"]),
        ("strasse", {}, ["Straße"]),
        ("STRASSE", {"case_sensitive": True}, []),
        ("finance", {}, ["ﬁnance"]),
        ("finance", {"case_sensitive": True, "accent_sensitive": True}, ["ﬁnance"]),
        ("office", {}, ["ofﬁce"]),
        ("fi", {}, ["ﬁ", "ﬁ"]),
        ("résumé", {"accent_sensitive": True}, ["résumé", "RÉSUMÉ"]),
        ("resume", {}, ["resume", "résumé", "RÉSUMÉ"]),
        ("RESUME", {"case_sensitive": True}, ["RÉSUMÉ"]),
        ("RESUME", {"case_sensitive": True, "accent_sensitive": True}, []),
        ("le  café", {}, ["Le Café"]),
    ],
)
def test_search_folds_case_accents_and_compatibility_forms(
    folding_pdf: str, query: str, flags: dict[str, bool], expected: list[str]
) -> None:
    assert [r.text for r in search(folding_pdf, query, **flags)] == expected


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"caf\w", {}, ["Café"]),
        (r"CAF\w", {"case_sensitive": True}, []),
        (r"stra(ss|ß)e", {}, ["Straße"]),
        (r"STRASSE", {}, ["Straße"]),
        (r"\bfi\w+", {}, ["ﬁnance"]),
        (r"r[ée]sum[ée]", {"accent_sensitive": True}, ["resume", "résumé", "RÉSUMÉ"]),
        (
            r"r[ée]sum[ée]",
            {"case_sensitive": True, "accent_sensitive": True},
            ["resume", "résumé"],
        ),
        (r"[A-Z]{6}", {"case_sensitive": True}, ["RÉSUMÉ"]),
        (r"[A-Z]{6}", {"case_sensitive": True, "accent_sensitive": True}, []),
    ],
)
def test_regex_search_folds_the_same_way(
    folding_pdf: str, pattern: str, flags: dict[str, bool], expected: list[str]
) -> None:
    found = search(folding_pdf, pattern, regex=True, **flags)
    assert [r.text for r in found] == expected


@pytest.mark.parametrize("regex", [False, True])
def test_accent_drawn_as_its_own_character_belongs_to_its_letter(
    tmp_path: Path, regex: bool
) -> None:
    path = make_pdf(tmp_path, lambda d: write(d.new_page(), (72, 72), "un cafe\u0301"))
    strict = {"accent_sensitive": True, "regex": regex}
    assert [r.text for r in search(path, "café", **strict)] == ["cafe\u0301"]
    assert search(path, "cafe", **strict) == []
    (loose,) = search(path, "cafe", regex=regex)
    assert loose.text == "cafe\u0301"
    assert_widths_fit(loose)


def test_match_on_a_ligature_boxes_the_whole_glyph(folding_pdf: str) -> None:
    (result,) = search(folding_pdf, "finance")
    assert result.text == "ﬁnance"
    assert result.individual_widths[0] > result.individual_widths[1]  # ﬁ vs n
    assert same_glyphs(result.position, poppler_box(folding_pdf, "ﬁnance"))
    assert_widths_fit(result)


# --- lines, geometry -----------------------------------------------------------


@pytest.fixture
def two_lines_pdf(tmp_path: Path) -> str:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (72, 100), "the quick brown")
        write(page, (72, 120), "fox jumps over")
        write(page, (72, 300), "A separate paragraph far below.")

    return make_pdf(tmp_path, build)


def test_match_across_line_break_gives_one_result_per_line(two_lines_pdf: str) -> None:
    first, second = search(two_lines_pdf, "brown fox")
    assert (first.text, second.text) == ("brown", "fox")
    assert same_glyphs(first.position, poppler_box(two_lines_pdf, "brown"))
    assert same_glyphs(second.position, poppler_box(two_lines_pdf, "fox"))
    assert first.position.y + first.position.h <= second.position.y + 1
    for result in (first, second):
        assert_widths_fit(result)


def test_result_carries_font_size_rotation_and_paragraph(two_lines_pdf: str) -> None:
    (near,) = search(two_lines_pdf, "quick")
    (far,) = search(two_lines_pdf, "separate")
    assert near.font == "NotoSerif-Regular"
    assert near.font_size == pytest.approx(12)
    assert (near.rotation, near.right_to_left, near.link) == (0, False, None)
    assert near.page == 0
    assert near.paragraph_id != far.paragraph_id


def test_font_name_loses_its_subset_prefix(tmp_path: Path, two_lines_pdf: str) -> None:
    document = pymupdf.open(two_lines_pdf)
    document.subset_fonts()
    subset = tmp_path / "subset.pdf"
    document.save(subset)
    (base_font,) = {font[3] for font in pymupdf.open(subset)[0].get_fonts()}
    prefix, name = base_font.split("+", 1)
    assert re.fullmatch("[A-Z]{6}", prefix)
    (result,) = search(str(subset), "quick")
    assert result.font == name


@pytest.mark.parametrize("rotation", [90, 180, 270])
@pytest.mark.parametrize("upright", [True, False], ids=["upright", "sideways"])
def test_rotated_page_boxes_are_in_displayed_space(
    tmp_path: Path, rotation: int, upright: bool
) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page(width=300, height=500)
        # Writing the text turned by the page's /Rotate makes it read upright on
        # screen (as scanners and landscape exports do); otherwise it runs sideways.
        page.insert_text((150, 250), "Gamma delta epsilon", rotate=rotation * upright)
        page.set_rotation(rotation)

    path = make_pdf(tmp_path, build)
    (result,) = search(path, "delta")
    width, height = (500, 300) if rotation in (90, 270) else (300, 500)
    box = result.position
    assert 0 <= box.x and box.x + box.w <= width
    assert 0 <= box.y and box.y + box.h <= height
    assert same_glyphs(box, poppler_box(path, "delta"))
    assert result.rotation == (0 if upright else rotation)
    assert_widths_fit(result)


def test_cropbox_offset_is_removed_from_positions_and_links(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=300, height=500)
    page.insert_text((100, 200), "Gamma delta epsilon")
    word = page.search_for("delta")[0]  # = PDF space flipped: no crop, no rotation
    page.set_cropbox(pymupdf.Rect(20, 30, 280, 470))
    page.set_rotation(270)
    path = tmp_path / "cropped.pdf"
    document.save(path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        # The link is written with pikepdf in PDF space, as a producer would.
        link = pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Link,
            Rect=[word.x0, 500 - word.y1, word.x1, 500 - word.y0],
            A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI="https://example.com/"),
        )
        pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([link]))
        pdf.save(path)

    (result,) = search(str(path), "delta")
    cropped = subprocess.run(
        ["pdftotext", "-cropbox", "-bbox", str(path), "-"],
        capture_output=True,
        text=True,
    ).stdout
    (expected,) = [b for w, b in poppler_words_from(cropped) if w == "delta"]
    assert same_glyphs(result.position, expected)
    assert result.link is not None
    assert same_glyphs(result.link.position, result.position)


def test_display_transform_matches_geometry_module() -> None:
    # Extraction transforms character boxes on plain floats with the page matrix
    # fetched once per page (speed); this pins it to geometry.page_rect_to_display.
    for rotation in (0, 90, 180, 270):
        page = pymupdf.open().new_page(width=300, height=500)
        page.set_rotation(rotation)
        rect = pymupdf.Rect(10, 20, 60, 35)
        transform = geometry.display_transformer(page)
        assert pymupdf.Rect(transform((rect.x0, rect.y0, rect.x1, rect.y1))) == (
            geometry.page_rect_to_display(page, rect)
        )


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_box_array_transform_equals_the_per_box_one(rotation: int) -> None:
    # Extraction transforms a page's character boxes as one array (and an
    # unrotated page without its matrix); each value must be the per-box one, bit
    # for bit, odd values included, and without a warning.
    page = pymupdf.open().new_page(width=300, height=500)
    page.set_cropbox(pymupdf.Rect(20, 30, 280, 470))
    page.set_rotation(rotation)
    rng = np.random.default_rng(rotation)
    odd = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 5e-324])
    boxes = np.concatenate(
        [
            rng.uniform(-100, 600, (500, 4)),
            rng.choice(odd, (500, 4)),
            np.where(
                rng.random((500, 4)) < 0.3,
                rng.choice(odd, (500, 4)),
                rng.uniform(-100, 600, (500, 4)),
            ),
        ]
    )
    finite = np.where(
        rng.random((500, 4)) < 0.3,
        rng.choice(odd[np.isfinite(odd)], (500, 4)),
        rng.uniform(-100, 600, (500, 4)),
    )
    per_box = geometry.display_transformer(page)
    for some in (finite, boxes):  # all finite: the unrotated page's short way
        expected = np.array([per_box(tuple(map(float, box))) for box in some])
        for transform in (
            geometry.display_boxes_transformer(page),
            geometry.display_boxes_transformer(page, page.rotation),
        ):
            got = transform(some)
            assert np.array_equal(got, expected, equal_nan=True)
            assert np.array_equal(np.signbit(got), np.signbit(expected))


def rawdict_blocks(page: pymupdf.Page) -> list[dict[str, Any]]:
    """MuPDF's characters as extraction asks for them: ligatures and white space
    kept, characters wholly outside the CropBox dropped."""
    flags = (
        pymupdf.TEXT_PRESERVE_LIGATURES
        | pymupdf.TEXT_PRESERVE_WHITESPACE
        | pymupdf.TEXT_MEDIABOX_CLIP
    )
    return page.get_text("rawdict", flags=flags)["blocks"]


def reference_lines(page: pymupdf.Page) -> list[tuple[Any, ...]]:
    """The page's lines as extraction defines them, one character at a time: each
    box to displayed space, characters whose centre is off the displayed page
    (outside the CropBox) left out, lines left empty dropped."""
    transform = geometry.display_transformer(page)
    visible = page.rect
    lines = []
    for number, block in enumerate(rawdict_blocks(page)):
        for line in block.get("lines", ()):
            chars: list[str] = []
            rects: list[float] = []
            starts, fonts = [], []
            for span in line["spans"]:
                starts.append(len(chars))
                font = re.sub(r"^[A-Z]{6}\+", "", span["font"])
                fonts.append((font, float(span["size"])))
                for char in span["chars"]:
                    rect = transform(char["bbox"])
                    x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
                    if visible.x0 <= x <= visible.x1 and visible.y0 <= y <= visible.y1:
                        chars.append(char["c"])
                        rects.extend(rect)
            if chars:
                rotation = geometry.line_rotation(tuple(line["dir"]), page.rotation)
                line_data = ("".join(chars), rects, starts, fonts, number, rotation)
                lines.append(line_data)
    return lines


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize(
    ("mediabox", "cropbox"),
    [
        ([0, 0, 600, 800], [0, 0, 600, 800]),
        ([0, 0, 600, 800], [40, 50, 500, 700]),
        ([-30, -40, 610, 820], [-10, 53.3, 471.7, 707.9]),
    ],
    ids=["uncropped", "cropped", "offset"],
)
def test_extraction_equals_the_per_character_definition(
    rotation: int, mediabox: list[float], cropbox: list[float]
) -> None:
    # Extraction takes shortcuts for speed (whole-page arrays, lines copied whole
    # when all their characters are visible, no matrix on unrotated pages); its
    # lines must be exactly those of the plain definition, characters cut by the
    # CropBox edges included.
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    for y in range(8, 800, 13):
        page.insert_text((-25 + y % 41, y), f"edge crossing text {y} " * 4, fontsize=11)
    page.insert_text((300, 400), "turned a quarter", rotate=90)
    page.insert_text((300, 400), "upside down", rotate=180)
    page.insert_text((300, 400), "fi ligature", fontname="Times-Roman")
    with pikepdf.open(io.BytesIO(document.tobytes())) as pdf:
        pdf.pages[0].MediaBox = pikepdf.Array(mediabox)
        pdf.pages[0].CropBox = pikepdf.Array(cropbox)
        pdf.pages[0].Rotate = rotation
        out = io.BytesIO()
        pdf.save(out)
    page = pymupdf.open("pdf", out.getvalue())[0]

    expected = reference_lines(page)
    lines = extract_page(page, 0).lines
    got = [
        (
            line.text,
            list(line.rects),
            list(line.span_starts),
            list(line.span_fonts),
            line.block,
            line.rotation,
        )
        for line in lines
    ]
    assert got == expected
    # The page really has characters whose centre the CropBox cuts off (MuPDF
    # keeps them: their box overlaps it), and turned lines.
    if cropbox != mediabox:
        drawn = sum(
            len(span["chars"])
            for block in rawdict_blocks(page)
            for line in block.get("lines", ())
            for span in line["spans"]
        )
        assert sum(len(line.text) for line in lines) < drawn
    assert len({line.rotation for line in lines}) >= 2


@pytest.mark.parametrize("enabled", [True, False])
def test_extraction_leaves_the_garbage_collector_as_it_was(
    two_lines_pdf: str, enabled: bool
) -> None:
    # Extraction holds the collector while it makes MuPDF's many small objects.
    page = pymupdf.open(two_lines_pdf)[0]
    (gc.enable if enabled else gc.disable)()
    try:
        assert extract_page(page, 0).lines
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


def test_page_lines_lists_every_line_in_reading_order(two_lines_pdf: str) -> None:
    lines = text.page_lines(two_lines_pdf, 0)
    assert [line.text for line in lines] == [
        "the quick brown",
        "fox jumps over",
        "A separate paragraph far below.",
    ]
    for line in lines:
        assert_widths_fit(line)


@pytest.mark.corpus
def test_widths_sum_to_box_width_on_real_pages(corpus: Path) -> None:
    for name, page in [("tracemonkey.pdf", 0), ("Harmattan-features.pdf", 6)]:
        for line in text.page_lines(str(corpus / name), page):
            assert_widths_fit(line)


# --- right to left -------------------------------------------------------------


@pytest.mark.parametrize("stream_order", ["visual", "logical"])
def test_hebrew_is_found_by_its_typed_spelling(
    tmp_path: Path, stream_order: str
) -> None:
    # Producers either draw RTL glyphs left to right in reversed (visual) order, or
    # keep logical order and place each glyph to the left of the previous one.
    # Both display the same; the user types the logical spelling for both.
    phrase = "שלום עולם"

    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        if stream_order == "visual":
            start = 200 - HEBREW.text_length(phrase, fontsize=12)
            write(page, (start, 100), phrase, font=HEBREW, right_to_left=True)
            return
        x = 200.0
        for char in phrase:
            x -= HEBREW.text_length(char, fontsize=12)
            write(page, (x, 100), char, font=HEBREW)

    path = make_pdf(tmp_path, build)
    (result,) = search(path, "שלום")
    assert result.right_to_left
    assert result.text == "שלום"
    # שלום is the rightmost word in both drawings, ending at x = 200.
    assert result.position.x + result.position.w == pytest.approx(200, abs=0.1)
    word_width = HEBREW.text_length("שלום", fontsize=12)
    assert result.position.w == pytest.approx(word_width, abs=0.1)
    assert_widths_fit(result)
    assert [line.text for line in text.page_lines(path, 0)] == [phrase]


def test_arabic_presentation_forms_match_base_letters(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page()
        write(page, (100, 100), "مرحبا بالعالم", font=ARABIC, right_to_left=True)

    path = make_pdf(tmp_path, build)
    line = text.page_lines(path, 0)[0].text
    assert any(0xFE70 <= ord(char) <= 0xFEFF for char in line)  # presentation forms
    (result,) = search(path, "بالعالم")
    assert result.right_to_left
    assert_widths_fit(result)
    strict = search(path, "بالعالم", accent_sensitive=True, case_sensitive=True)
    assert [r.text for r in strict] == [result.text]  # compatibility: always folded


@pytest.mark.corpus
def test_arabic_corpus_words_are_found_in_logical_order(corpus: Path) -> None:
    path = str(corpus / "ArabicCIDTrueType.pdf")
    # Four lines, each "انواع الخطوط العربية" in another font, drawn with
    # presentation forms; the user types the plain letters in logical order, while
    # poppler reports each word in glyph (visual) order.
    poppler = [b for w, b in poppler_words(path) if w == "ﺔﻴﺑﺮﻌﻟا"]
    results = search(path, "العربية")
    assert len(results) == len(poppler) == 4
    for result, expected in zip(results, poppler, strict=True):
        assert result.right_to_left and result.rotation == 0
        assert same_glyphs(result.position, expected)
        assert_widths_fit(result)
    assert len(search(path, "الخطوط العربية")) == 4


# --- links ---------------------------------------------------------------------


@pytest.mark.parametrize("rotation", [0, 90])
def test_link_under_a_match_is_reported(tmp_path: Path, rotation: int) -> None:
    def build(document: pymupdf.Document) -> None:
        document.new_page()
        document.new_page()
        page = document[0]
        page.insert_text((72, 100), "visit example and page two here")
        page.set_rotation(rotation)
        example = page.search_for("example")[0]  # unrotated space, as insert_link
        two = page.search_for("two")[0]
        page.insert_link(
            {"kind": pymupdf.LINK_URI, "from": example, "uri": "https://example.com/"}
        )
        page.insert_link({"kind": pymupdf.LINK_GOTO, "from": two, "page": 1})

    path = make_pdf(tmp_path, build)
    (uri,) = search(path, "example")
    assert uri.link is not None
    assert (uri.link.action, uri.link.destination) == ("URI", "https://example.com/")
    assert same_glyphs(uri.link.position, uri.position)
    (goto,) = search(path, "two")
    assert goto.link is not None
    assert (goto.link.action, goto.link.destination) == ("GOTO", "1")
    (plain,) = search(path, "visit")
    assert plain.link is None


# --- regex safety --------------------------------------------------------------


def test_zero_length_regex_matches_are_skipped(two_lines_pdf: str) -> None:
    assert search(two_lines_pdf, "^", regex=True) == []
    assert [r.text for r in search(two_lines_pdf, "x*", regex=True)] == ["x"]
    assert [r.text for r in search(two_lines_pdf, r"\bfox\b|(?=q)", regex=True)] == [
        "fox"
    ]


def test_invalid_regex_raises_search_error(two_lines_pdf: str) -> None:
    with pytest.raises(SearchError, match="invalid regular expression"):
        search(two_lines_pdf, "(ab", regex=True)


def test_catastrophic_regex_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        # regex's own safeguards make (a+)+$ polynomial: it needs a long line.
        page = document.new_page(width=3000, height=100)
        write(page, (10, 50), "a" * 1500 + "b", size=3)

    path = make_pdf(tmp_path, build)
    search(path, "warm the cache")
    started = time.monotonic()
    with pytest.raises(SearchError, match="longer than 1 s"):
        search(path, "(a+)+$", regex=True)
    assert time.monotonic() - started < 1.5


def test_overlong_pattern_is_refused(two_lines_pdf: str) -> None:
    with pytest.raises(SearchError, match="longer than 10 characters"):
        text.search_page(
            two_lines_pdf, 0, SearchQuery("x" * 11, regex=True), max_pattern_length=10
        )


def test_page_out_of_range_raises(two_lines_pdf: str) -> None:
    for page in (-1, 1):
        with pytest.raises(PageOutOfRange, match="has 1 pages"):
            search(two_lines_pdf, "fox", page=page)


def test_image_only_page_has_no_results(tmp_path: Path) -> None:
    path = make_pdf(tmp_path, lambda document: document.new_page())
    assert search(path, "anything") == []
    assert text.page_lines(path, 0) == []


# --- documents and cache -------------------------------------------------------


def test_documents_are_cached_until_the_file_changes(
    tmp_path: Path, two_lines_pdf: str
) -> None:
    first = text.open_document(two_lines_pdf)
    assert text.open_document(two_lines_pdf) is first
    # Same file name as the fixture: the file is rewritten in place.
    make_pdf(tmp_path, lambda d: write(d.new_page(), (72, 72), "replaced"))
    assert text.open_document(two_lines_pdf) is not first
    assert [r.text for r in search(two_lines_pdf, "replaced")] == ["replaced"]
    assert search(two_lines_pdf, "fox") == []


def test_cache_size_bounds_open_documents(tmp_path: Path) -> None:
    paths = [
        make_pdf(tmp_path, lambda d: d.new_page(), name=f"{n}.pdf") for n in range(3)
    ]
    try:
        text.configure_cache(documents=2)
        first = text.open_document(paths[0])
        text.open_document(paths[1])
        assert text.open_document(paths[0]) is first  # refreshed: paths[1] is oldest
        text.open_document(paths[2])
        assert text.open_document(paths[0]) is first
        text.clear_cache()
        assert text.open_document(paths[0]) is not first
    finally:
        text.configure_cache()


def test_empty_user_password_is_opened(tmp_path: Path, two_lines_pdf: str) -> None:
    encrypted = tmp_path / "encrypted.pdf"
    with pikepdf.open(two_lines_pdf) as pdf:
        pdf.save(encrypted, encryption=pikepdf.Encryption(owner="secret", user=""))
    with pikepdf.open(encrypted) as pdf:
        assert pdf.is_encrypted
    assert [r.text for r in search(str(encrypted), "fox")] == ["fox"]


def test_user_password_is_refused(tmp_path: Path, two_lines_pdf: str) -> None:
    locked = tmp_path / "locked.pdf"
    with pikepdf.open(two_lines_pdf) as pdf:
        pdf.save(locked, encryption=pikepdf.Encryption(owner="secret", user="pw"))
    with pytest.raises(UnsupportedDocument, match="password"):
        search(str(locked), "fox")


def test_non_pdf_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a PDF")
    with pytest.raises(UnsupportedDocument):
        text.open_document(str(junk))


def test_concurrent_searches_agree_with_sequential_ones(two_lines_pdf: str) -> None:
    queries = ["quick", "brown fox", "paragraph", "nothing"]
    expected = {q: search(two_lines_pdf, q) for q in queries}
    try:
        text.configure_cache(documents=1, pages=1)  # force evictions under load
        with ThreadPoolExecutor(max_workers=4) as pool:
            found = list(
                pool.map(lambda q: (q, search(two_lines_pdf, q)), queries * 25)
            )
    finally:
        text.configure_cache()
    assert all(results == expected[q] for q, results in found)


# --- rendering -----------------------------------------------------------------


def test_render_is_the_displayed_page_at_the_requested_width(tmp_path: Path) -> None:
    def build(document: pymupdf.Document) -> None:
        page = document.new_page(width=300, height=500)
        page.set_rotation(90)

    png = text.render_page_png(make_pdf(tmp_path, build), 0, 250)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (250, 150)


# --- corpus --------------------------------------------------------------------

# pdftotext -bbox measures from the MediaBox's top-left corner, decisions §4 from the
# CropBox's; FACTS boxes are shifted by the crop offset before comparing.
# poppler-90-0-fuzzed.pdf: qpdf --check reports damaged streams; poppler salvages
# words that MuPDF drops with the broken content streams (pages 3 and 10).
UNRECOVERABLE = {"poppler-90-0-fuzzed.pdf"}


def page_text(path: str, page: int) -> str:
    return " ".join(line.text for line in text.page_lines(path, page)).casefold()


def facts_box_in_display(bbox: list[float], pdf_page: pikepdf.Page) -> Box:
    crop = [float(v) for v in pdf_page.cropbox]  # inherited values resolved
    media = [float(v) for v in pdf_page.mediabox]
    dx, dy = crop[0] - media[0], media[3] - crop[3]
    if (dx or dy) and pdf_page.rotation % 360:
        pytest.fail("crop offset on a rotated page: convert FACTS boxes for it")
    return Box(bbox[0] - dx, bbox[1] - dy, bbox[2] - bbox[0], bbox[3] - bbox[1])


def corpus_documents() -> list[str]:
    if not corpus_module.available():
        return ["absent"]
    return sorted(
        name
        for name, fact in corpus_module.facts().items()
        if fact["distinctive_words"]
    )


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_documents())
def test_distinctive_words_are_found_where_poppler_sees_them(
    corpus: Path, facts: dict[str, Any], name: str
) -> None:
    fact = facts[name]
    path = str(corpus / name)
    with pikepdf.open(path) as pdf:
        missed = []
        for entry in fact["distinctive_words"]:
            page = entry["page"] - 1
            for word in entry["words"]:
                typed = word.get("nfkc_reversed") or word["word"]
                expected = facts_box_in_display(word["bbox"], pdf.pages[page])
                found = search(path, typed, page=page)
                if not any(same_glyphs(r.position, expected) for r in found):
                    missed.append((entry["page"], typed, found))
    if name in UNRECOVERABLE:
        # A word may be missed only when MuPDF's text of the page lacks it.
        missed = [m for m in missed if m[1].casefold() in page_text(path, m[0] - 1)]
    assert missed == []
