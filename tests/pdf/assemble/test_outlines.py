"""Outlines (bookmarks) follow their pages into the output and lose the pages left out."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _numbered, _qpdf_check


def _with_outline(path: Path, label: str, pages: int, toc: list[list[object]]) -> str:
    _numbered(path, label, pages)
    with pymupdf.open(str(path)) as doc:
        doc.set_toc(toc)
        doc.saveIncr()
    return str(path)


def test_outlines_of_merged_documents_follow_their_pages(tmp_path: Path) -> None:
    a = _with_outline(
        tmp_path / "a.pdf",
        "A",
        4,
        [[1, "A intro", 1], [1, "A part", 2], [2, "A detail", 3]],
    )
    b = _with_outline(tmp_path / "b.pdf", "B", 3, [[1, "B start", 1], [1, "B end", 3]])
    out = str(tmp_path / "out.pdf")
    elements = [
        SourceElement("a", a, (PageRange(2, 3),)),
        SourceElement("b", b),
        SourceElement("a", a, (PageRange(1, 1),)),
    ]

    assemble(elements, out)

    with pymupdf.open(out) as pdf:
        toc = pdf.get_toc()
    # A's outline once, where A first appears; each item on its page's first copy.
    assert toc == [
        [1, "A intro", 6],
        [1, "A part", 1],
        [2, "A detail", 2],
        [1, "B start", 3],
        [1, "B end", 5],
    ]
    _qpdf_check(out)


def test_outline_items_of_pages_left_out_are_dropped(tmp_path: Path) -> None:
    a = _with_outline(
        tmp_path / "a.pdf",
        "A",
        4,
        [[1, "A intro", 1], [1, "A part", 2], [2, "A detail", 3]],
    )
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("a", a, (PageRange(3, 4),))], out)

    with pymupdf.open(out) as pdf:
        toc = pdf.get_toc()
    # "A part" stays, without a page, to hold "A detail".
    assert toc == [[1, "A part", -1], [2, "A detail", 1]]
    _qpdf_check(out)


@pytest.mark.corpus
def test_the_outline_of_a_manual_is_pruned_to_the_pages_taken(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    first, last = 20, 60

    assemble([SourceElement("octave", source, (PageRange(first, last),))], out)

    with pymupdf.open(source) as pdf:
        entries = pdf.get_toc()
    expected = []
    for n, (level, title, page) in enumerate(entries):
        inside = first <= page <= last
        below = []
        for lower in entries[n + 1 :]:
            if lower[0] <= level:
                break
            below.append(lower)
        if inside or any(first <= p <= last for _, _, p in below):
            expected.append([level, title, page - first + 1 if inside else -1])
    with pymupdf.open(out) as pdf:
        assert pdf.get_toc() == expected
    assert len(expected) > 20
