"""Search folds case, accents and compatibility forms (ligatures, ß), plain and regex."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.pdf.text.helpers import (
    assert_widths_fit,
    make_pdf,
    poppler_box,
    same_glyphs,
    search,
    write,
)


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
