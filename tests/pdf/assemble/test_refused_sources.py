"""Sources that cannot be assembled are refused with a message naming them, and no
output is written.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from engines.errors import EngineError
from engines.pdf.assemble import assemble
from engines.pdf.types import PageRange, SourceElement


@pytest.mark.parametrize(("first", "last"), [(0, 2), (5, 9), (7, 7), (4, 2)])
def test_a_range_outside_the_document_names_document_and_range(
    doc_a: str, tmp_path: Path, first: int, last: int
) -> None:
    out = tmp_path / "out.pdf"
    elements = [
        SourceElement("good", doc_a, (PageRange(1, 1),)),
        SourceElement("doc-42", doc_a, (PageRange(first, last),)),
    ]

    with pytest.raises(EngineError) as error:
        assemble(elements, str(out))

    assert "doc-42" in str(error.value)
    assert f"{first}-{last}" in str(error.value)
    assert not out.exists()


def test_a_file_that_is_not_a_pdf_is_refused_clearly(
    doc_a: str, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a PDF at all\n" * 20)
    out = tmp_path / "out.pdf"

    with pytest.raises(EngineError, match="'junk-doc' is not a readable PDF") as error:
        assemble(
            [SourceElement("a", doc_a), SourceElement("junk-doc", str(junk))], str(out)
        )

    assert str(tmp_path) not in str(error.value)  # storage paths are not shown
    assert not out.exists()


def test_a_missing_file_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="'gone' is missing"):
        assemble(
            [SourceElement("gone", str(tmp_path / "nope.pdf"))], str(tmp_path / "o.pdf")
        )


def test_a_password_protected_source_is_refused_clearly(
    doc_a: str, tmp_path: Path
) -> None:
    locked = str(tmp_path / "locked.pdf")
    with pikepdf.open(doc_a) as pdf:
        pdf.save(locked, encryption=pikepdf.Encryption(user="secret", owner="secret"))

    with pytest.raises(EngineError, match="'locked' is protected by a password"):
        assemble([SourceElement("locked", locked)], str(tmp_path / "o.pdf"))


def test_nothing_to_assemble_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError):
        assemble([], str(tmp_path / "o.pdf"))
