"""Redaction of a word through the whole document: its text, streams, strings,
metadata, links and annotations, and the box drawn over it.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pymupdf

from engines.pdf.types import Rgb
from tests.pdf.redact.helpers import (
    contains_word,
    pdftotext,
    redact_file,
    redaction,
    text_lines,
    word_box,
)


def test_source_fixture_really_holds_the_word_everywhere(secret_pdf: Path) -> None:
    assert secret_pdf.read_bytes().count(b"%%EOF") == 2
    assert "secret" in pdftotext(secret_pdf)
    assert contains_word(secret_pdf, "secret")


def test_redacted_word_is_gone_and_its_line_and_neighbours_stay(
    secret_pdf: Path,
) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    lines = [line.split() for line in text_lines(out)]
    assert "secret" not in pdftotext(out)
    assert lines[:3] == [
        ["alpha", "bravo", "charlie"],
        ["delta", "echo"],
        ["foxtrot", "golf", "hotel"],
    ]


def test_no_stream_or_string_of_the_output_holds_the_word(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    for mode in ("burn", "live"):
        out = redact_file(secret_pdf, [redaction(0, box)], mode)
        assert not contains_word(out, "secret"), mode


def test_output_is_a_single_full_revision(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    assert out.read_bytes().count(b"%%EOF") == 1
    check = subprocess.run(
        ["qpdf", "--check", str(out)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_metadata_xmp_outline_and_field_value_are_scrubbed(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)])
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
    assert re.search(r"^Title:\s+The report$", info, re.MULTILINE)
    assert re.search(r"^Author:\s+Agent$", info, re.MULTILINE)
    with pymupdf.open(out) as document:
        xmp = document.get_xml_metadata()
        toc = document.get_toc()
        values = [w.field_value for p in document for w in p.widgets()]
    # The XMP is made anew from the scrubbed information dictionary.
    assert ">The report<" in xmp and ">Agent<" in xmp
    assert "budget" not in xmp
    assert [entry[1] for entry in toc] == ["chapter", "Plain chapter"]
    assert values == [""]


def test_link_and_annotation_over_the_area_go_and_others_stay(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box)], "live")
    with pymupdf.open(out) as document:
        page = document[0]
        assert [link["uri"] for link in page.get_links()] == [
            "https://example.org/kept"
        ]
        assert list(page.annots()) == []
        assert len(list(page.widgets())) == 1


def test_redaction_box_is_filled_with_its_colour(secret_pdf: Path) -> None:
    with pymupdf.open(secret_pdf) as document:
        box = word_box(document[0], "secret")
    out = redact_file(secret_pdf, [redaction(0, box, colour=Rgb(0, 200, 0))])
    with pymupdf.open(out) as document:
        pix = document[0].get_pixmap(dpi=72)
    assert pix.pixel(int(box.x + box.w / 2), int(box.y + box.h / 2)) == (0, 200, 0)
