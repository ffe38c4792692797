"""Which glyphs an area takes (the edge rule) and which runs of text that removes, then
scrubs elsewhere.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf import geometry, redact
from engines.pdf.types import Box
from tests.pdf.redact.helpers import (
    LINES,
    glyph_tokens,
    line_boxes,
    text_lines,
    texts,
    word_box,
    write_lines,
)


@pytest.mark.parametrize(("depth", "survives"), [(0.20, True), (0.30, False)])
def test_line_entering_the_area_by_less_than_a_quarter_survives(
    tmp_path: Path, depth: float, survives: bool
) -> None:
    # 20 pt leading: the lines' glyph boxes do not overlap; the area covers the
    # middle line and reaches `depth` of the bottom line's glyph height into it.
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    middle, bottom = line_boxes(page)[1:3]
    area = pymupdf.Rect(40, middle.y0, 200, bottom.y0 + depth * bottom.height)
    box = geometry.rect_to_box(geometry.page_rect_to_display(page, area))
    removed = redact.redact_page(page, [(box, None)]).removed
    document.save(tmp_path / "touch.pdf")
    lines = text_lines(tmp_path / "touch.pdf")
    assert lines[0] == "alpha bravo charlie"
    assert ("foxtrot golf hotel" in lines) is survives
    assert texts(removed) == (
        ["delta", "secret", "echo"]
        if survives
        else ["delta", "secret", "echo", "foxtrot", "golf", "hotel"]
    )


def test_line_touching_the_top_edge_survives(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    write_lines(page, LINES, leading=20)
    top, middle = line_boxes(page)[:2]
    area = pymupdf.Rect(40, top.y1 - 0.2 * top.height, 200, middle.y1)
    removed = redact.redact_page(page, [(geometry.rect_to_box(area), None)]).removed
    assert texts(removed) == ["delta", "secret", "echo"]
    assert page.get_text().split() == [
        "alpha",
        "bravo",
        "charlie",
        "foxtrot",
        "golf",
        "hotel",
    ]


@pytest.mark.parametrize(
    "area",
    [(60, 50, 160, 75), (100, 70, 250, 110), (45, 95, 300, 105), (150, 40, 170, 160)],
)
def test_reported_runs_are_the_glyphs_lost_on_overlapping_lines(
    area: tuple[float, float, float, float],
) -> None:
    # Lines of mixed sizes closer than their glyph boxes are tall: an area meets
    # the boxes of lines it does not mean to take, and must report what went:
    # for each word, the part of it that is no longer on the page.
    # (Words are read back with MuPDF: pdftotext glues overlapping lines' words.)
    names = iter(
        "amber basil cedar dune ember fjord grove heath islet jade".split() * 4
    )
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    top = 60.0
    for number in range(8):
        size = (9, 14, 11, 22)[number % 4]
        words = [f"{next(names)}{number}" for _ in range(4)]
        page.insert_text((40 + 7 * (number % 3), top), " ".join(words), fontsize=size)
        top += size * 0.8
    before = glyph_tokens(page)
    box = geometry.rect_to_box(pymupdf.Rect(area))
    removed = redact.redact_page(page, [(box, None)]).removed
    kept = {glyph for token in glyph_tokens(page) for glyph in token}
    lost = set()
    for token in before:
        run = ""
        for glyph in [*token, None]:
            if glyph is not None and glyph not in kept:
                run += glyph[0]
            elif run:
                lost.add(run)
                run = ""
    assert removed
    assert set(texts(removed)) == lost


def test_run_cut_from_a_word_drawn_in_two_pieces_is_reported_open() -> None:
    document = pymupdf.open()
    page = document.new_page(width=300, height=200)
    page.insert_text((50, 100), "x", fontsize=12)  # the font resource
    pixels = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 4, 4), False)
    page.insert_image(pymupdf.Rect(150, 20, 170, 40), pixmap=pixels)
    font, image = page.get_fonts()[0][4], page.get_images()[0][7]
    document.update_stream(
        page.get_contents()[0],
        f"BT /{font} 12 Tf 50 100 Td (Hel) Tj ET q 20 0 0 20 150 150 cm /{image} Do"
        f" Q BT /{font} 12 Tf 68 100 Td (lo world) Tj ET".encode(),
    )
    lo = word_box(page, "Hello")
    area = Box(lo.x + lo.w * 0.65, lo.y, lo.w * 0.3, lo.h)  # the "lo"
    [run] = redact.redact_page(page, [(area, None)]).removed
    assert run == redact.Removed("lo", starts_word=False, ends_word=True)
    assert page.get_text().split() == ["Hel", "world"]


def test_empty_area_is_an_engine_error(tmp_path: Path) -> None:
    document = pymupdf.open()
    page = document.new_page()
    with pytest.raises(EngineError, match="positive width"):
        redact.redact_page(page, [(Box(10, 10, 0, 5), None)])


def test_removed_text_is_the_runs_of_removed_glyphs_in_any_script() -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    page.insert_text((50, 100), "我住在东京很多年", fontname="china-s", fontsize=12)
    page.insert_text((50, 130), "Confidential words", fontsize=12)
    blocks = page.get_text("rawdict")["blocks"]
    chars = [
        char
        for block in blocks
        for line in block["lines"]
        for span in line["spans"]
        for char in span["chars"]
    ]
    tokyo = pymupdf.Rect(chars[3]["bbox"]) | pymupdf.Rect(chars[4]["bbox"])
    tail = pymupdf.Rect(chars[13]["bbox"]) | pymupdf.Rect(chars[15]["bbox"])  # "den"
    areas = [(geometry.rect_to_box(rect), None) for rect in (tokyo, tail)]
    assert redact.redact_page(page, areas).removed == [
        redact.Removed("东京", starts_word=False, ends_word=False),
        redact.Removed("den", starts_word=False, ends_word=False),
    ]
    assert page.get_text().split() == ["我住在", "很多年", "Confi", "tial", "words"]


def swept_info(
    info: dict[str, str], removed: Sequence[redact.Removed | str]
) -> dict[str, str]:
    """The Info entries of a one-page PDF after `redact.sweep` of `removed`."""
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        pdf.trailer.Info = pdf.make_indirect(
            pikepdf.Dictionary({f"/{k}": pikepdf.String(v) for k, v in info.items()})
        )
        redact.sweep(pdf, removed, [])
        return {k: str(pdf.trailer.Info[f"/{k}"]) for k in info}


def test_scrubbing_matches_whole_words_with_full_case_folding() -> None:
    info = {
        "Title": "Secretary of the SECRET service",
        "Subject": "Geheimnis: Straße",
        "Keywords": "东京报告",
    }
    assert swept_info(info, ["secret,", "STRASSE", "东京", "—"]) == {
        "Title": "Secretary of the service",
        "Subject": "Geheimnis:",
        "Keywords": "报告",
    }


def test_scrubbing_follows_the_removed_run_not_the_token_it_sat_in() -> None:
    info = {
        "Title": "Acme's report for Client:Acme",
        "Subject": "Acmeology, AcmeCorp",
        "Keywords": "Bacme and Acme",
    }
    assert swept_info(info, [redact.Removed("Acme")]) == {
        "Title": "'s report for Client:",
        "Subject": "Acmeology, AcmeCorp",
        "Keywords": "Bacme and",
    }
    cut = [redact.Removed("cme", starts_word=False)]
    assert swept_info(info, cut)["Keywords"] == "Ba and A"
    assert swept_info(info, cut)["Subject"] == "Acmeology, AcmeCorp"


@pytest.mark.parametrize("enabled", [True, False])
def test_no_collection_walks_the_page_text_and_the_collector_is_left_as_it_was(
    enabled: bool,
) -> None:
    # Thousands of glyphs, a dict and two tuples each in MuPDF's rawdict: a
    # collection while they are alive walks every one of them.
    document = pymupdf.open()
    page = document.new_page(width=600, height=800)
    lines = [f"line {n} of words that fill the page, secret {n}" for n in range(50)]
    write_lines(page, lines, top=40, leading=14, size=10)
    area = Box(40, 20, 300, 400)
    walked: list[int] = []

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":  # the objects of the generations it collects
            young = range(info["generation"] + 1)
            walked.append(sum(len(gc.get_objects(g)) for g in young))

    (gc.enable if enabled else gc.disable)()
    gc.collect()
    gc.callbacks.append(count)
    try:
        removed = redact.redact_page(page, [(area, None)]).removed
        assert gc.isenabled() is enabled
    finally:
        gc.callbacks.remove(count)
        gc.enable()
    assert removed  # the area did take text
    assert all(objects < 2000 for objects in walked), walked
