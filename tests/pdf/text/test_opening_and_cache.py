"""Opening documents (passwords, non-PDFs) and the cache of open documents: bounded,
refreshed when a file changes, safe under concurrent searches.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pikepdf
import pytest

from engines.errors import UnsupportedDocument
from engines.pdf import text
from tests.pdf.text.helpers import make_pdf, search, write


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
