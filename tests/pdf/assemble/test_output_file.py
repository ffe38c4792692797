"""What the output file declares: no encryption, the newest PDF version of its sources."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pikepdf
import pytest

from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement
from tests.pdf.assemble.helpers import _page_text, _qpdf_check


@pytest.mark.corpus
def test_a_source_encrypted_with_an_empty_password_gives_a_plain_output(
    corpus: Path, tmp_path: Path
) -> None:
    source = str(corpus / "r6-empty-password.pdf")
    out = str(tmp_path / "out.pdf")

    assemble([SourceElement("r6", source, (PageRange(1, 1), PageRange(1, 1)))], out)

    with pikepdf.open(out) as pdf:
        assert not pdf.is_encrypted
    text = _page_text(source, 1)
    assert text.strip()
    assert _page_text(out, 1) == text == _page_text(out, 2)
    _qpdf_check(out)


def test_the_output_declares_the_newest_source_version(
    doc_a: str, tmp_path: Path
) -> None:
    newer = str(tmp_path / "newer.pdf")
    with pikepdf.open(doc_a) as pdf:
        pdf.save(newer, force_version="1.7")
    out = str(tmp_path / "out.pdf")

    assemble(
        [SourceElement("a", doc_a, (PageRange(1, 1),)), SourceElement("n", newer)], out
    )

    info = subprocess.run(
        ["pdfinfo", out], capture_output=True, check=True, text=True
    ).stdout
    assert re.search(r"PDF version:\s+1\.7", info)
