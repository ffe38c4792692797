"""The pages asked for come out, in the order listed, repeats included."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from engines.pdf.assemble import assemble, page_count
from engines.pdf.types import PageOrigin, PageRange, SourceElement
from tests.pdf.assemble.helpers import _page_text, _qpdf_check, _texts


def test_selected_ranges_come_out_in_the_order_listed(
    doc_a: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")
    ranges = (PageRange(4, 5), PageRange(1, 1), PageRange(6, 6))

    origins = assemble([SourceElement("a", doc_a, ranges)], out)

    assert _texts(out) == [
        "doc A page 4",
        "doc A page 5",
        "doc A page 1",
        "doc A page 6",
    ]
    assert origins == [
        PageOrigin("a", 3),
        PageOrigin("a", 4),
        PageOrigin("a", 0),
        PageOrigin("a", 5),
    ]
    _qpdf_check(out)


def test_whole_document_is_taken_when_no_ranges_are_given(
    doc_b: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")

    origins = assemble([SourceElement("b", doc_b)], out)

    assert _texts(out) == ["doc B page 1", "doc B page 2", "doc B page 3"]
    assert [o.page for o in origins] == [0, 1, 2]


def test_elements_are_joined_in_order(doc_a: str, doc_b: str, tmp_path: Path) -> None:
    out = str(tmp_path / "out.pdf")
    elements = [
        SourceElement("b", doc_b),
        SourceElement("a", doc_a, (PageRange(2, 3),)),
        SourceElement("b", doc_b, (PageRange(1, 1),)),
    ]

    origins = assemble(elements, out)

    assert _texts(out) == [
        "doc B page 1",
        "doc B page 2",
        "doc B page 3",
        "doc A page 2",
        "doc A page 3",
        "doc B page 1",
    ]
    assert [(o.key, o.page) for o in origins] == [
        ("b", 0),
        ("b", 1),
        ("b", 2),
        ("a", 1),
        ("a", 2),
        ("b", 0),
    ]
    _qpdf_check(out)


def test_repeated_and_overlapping_ranges_repeat_pages_as_distinct_objects(
    doc_a: str, tmp_path: Path
) -> None:
    out = str(tmp_path / "out.pdf")
    ranges = (PageRange(1, 3), PageRange(2, 4), PageRange(2, 2))

    origins = assemble([SourceElement("a", doc_a, ranges)], out)

    assert _texts(out) == [f"doc A page {n}" for n in (1, 2, 3, 2, 3, 4, 2)]
    assert [o.page for o in origins] == [0, 1, 2, 1, 2, 3, 1]
    with pikepdf.open(out) as pdf:
        objects = [page.obj.objgen for page in pdf.pages]
    assert len(set(objects)) == len(objects)
    _qpdf_check(out)


@pytest.mark.corpus
def test_scattered_pages_of_a_large_manual_keep_their_text(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    wanted = [1, 500, 1158, 500]
    ranges = tuple(PageRange(n, n) for n in wanted)

    origins = assemble([SourceElement("octave", source, ranges)], out)

    assert [o.page for o in origins] == [n - 1 for n in wanted]
    for position, number in enumerate(wanted, start=1):
        assert _page_text(out, position) == _page_text(source, number)
    assert page_count(out) == 4
    _qpdf_check(out)


def test_page_count_counts_pages(doc_a: str) -> None:
    assert page_count(doc_a) == 6
