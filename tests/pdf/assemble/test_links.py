"""Links lead to the same pages in the output, or are dropped with the pages left out."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _numbered, _qpdf_check


@pytest.mark.corpus
def test_links_of_a_manual_lead_to_the_same_pages_or_are_dropped(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "octave.pdf")
    out = str(tmp_path / "out.pdf")
    first, last = 20, 60  # 1-based: output page i is source page i + 19

    assemble([SourceElement("octave", source, (PageRange(first, last),))], out)

    kept = dropped = 0
    with pymupdf.open(source) as src, pymupdf.open(out) as dst:
        for i in range(last - first + 1):
            expected = []
            for link in src[first - 1 + i].get_links():
                if link["kind"] in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED):
                    if not first - 1 <= link["page"] <= last - 1:
                        dropped += 1
                        continue
                    expected.append(("page", link["page"] - (first - 1)))
                else:
                    expected.append(("uri", link.get("uri")))
            got = [
                ("page", link["page"])
                if link["kind"] == pymupdf.LINK_GOTO
                else ("uri", link.get("uri"))
                for link in dst[i].get_links()
            ]
            assert got == expected, f"output page {i}"
            kept += len(got)
    assert kept > 50 and dropped > 0
    _qpdf_check(out)


def test_links_to_pages_left_out_are_dropped(tmp_path: Path) -> None:
    source = _numbered(tmp_path / "links.pdf", "L", 4, links=True)
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("l", source, (PageRange(1, 2), PageRange(4, 4)))], out)

    with pymupdf.open(out) as pdf:
        links = [
            [
                (link["kind"], link.get("page"), link.get("uri"))
                for link in page.get_links()
            ]
            for page in pdf
        ]
    assert links == [
        [
            (pymupdf.LINK_GOTO, 1, None),
            (pymupdf.LINK_URI, None, "https://example.org/"),
        ],
        [],  # it led to page 3, which is not in the output
        [],
    ]
    _qpdf_check(out)
