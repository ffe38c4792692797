"""Hostile Office files end with a clear error (or a clean result) within
their time limit, and the pool goes on."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest

from engines.convert import (
    ConversionFailed,
    EncryptedDocument,
    Family,
    LimitExceeded,
    Limits,
    OfficePool,
    detect,
    to_pdf,
    unpack,
)
from engines.errors import UnsupportedDocument
from tests.convert import files, hostile
from tests.convert.helpers import pdf_text


def convert(path: Path, pool: OfficePool, limits: Limits | None = None) -> None:
    to_pdf(
        str(path),
        detect(str(path)),
        str(path) + ".pdf",
        limits or Limits(timeout=60),
        office=pool,
    )


@pytest.mark.parametrize(
    "streams",
    [
        {
            "EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60),
            "EncryptedPackage": bytes(600),
        },
        {"WordDocument": b"\xec\xa5\xc1\x00" + bytes(6) + b"\x00\x01" + bytes(600)},
        {
            "Workbook": b"\x09\x08\x02\x00\x00\x06"
            + b"\x2f\x00\x02\x00\x00\x00"
            + bytes(600)
        },
    ],
    ids=["ooxml", "doc", "xls"],
)
def test_a_password_protected_office_file_is_refused_clearly(
    tmp_path: Path, office_pool: OfficePool, streams: dict[str, bytes]
) -> None:
    path = files.make_ole(tmp_path / "secret", streams)

    with pytest.raises(
        EncryptedDocument, match="protected by a password; remove the password"
    ):
        convert(path, office_pool)


def test_an_encrypted_opendocument_is_refused_clearly(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    path = files.make_odt(
        tmp_path / "secret", "", manifest_extra="<manifest:encryption-data/>"
    )

    with pytest.raises(EncryptedDocument, match="password"):
        convert(path, office_pool)


def test_a_truncated_docx_is_a_damaged_archive(tmp_path: Path) -> None:
    source = files.make_docx(tmp_path / "a.docx", ["Cut short"], image=True)
    path = tmp_path / "cut"
    path.write_bytes(source.read_bytes()[: source.stat().st_size // 2])

    detected = detect(str(path))
    assert detected.family is Family.ARCHIVE
    with pytest.raises(UnsupportedDocument, match="damaged"):
        unpack(str(path), detected, str(tmp_path))


def test_a_docx_with_garbage_xml_fails_clearly_and_the_pool_goes_on(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    source = files.make_docx(tmp_path / "a.docx", ["Garbage"])
    path = files.rewrite_zip(
        source, tmp_path / "garbage.docx", {"word/document.xml": b"\x00\xff<w:not-xml"}
    )

    with pytest.raises(ConversionFailed, match="could not open the document"):
        convert(path, office_pool)

    good = files.make_docx(tmp_path / "good.docx", ["Still converting"])
    convert(good, office_pool)
    assert "Still converting" in pdf_text(str(good) + ".pdf")


def test_a_billion_laughs_docx_is_refused_before_libreoffice(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    path = hostile.docx_billion_laughs(tmp_path / "laughs.docx")
    started = time.monotonic()

    with pytest.raises(
        UnsupportedDocument, match="declares a DTD or entities in word/document.xml"
    ):
        convert(path, office_pool)

    assert time.monotonic() - started < 5


def test_a_zip_bomb_inside_a_docx_is_refused(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    path = hostile.docx_with_zip_bomb(
        tmp_path / "bomb.docx", inflated=256 * 1024 * 1024
    )
    assert path.stat().st_size < 2 * 1024 * 1024
    started = time.monotonic()

    with pytest.raises(
        LimitExceeded, match=r"word/media/image1.png\) inflates .* decompression bombs"
    ):
        convert(path, office_pool)

    assert time.monotonic() - started < 10


def test_a_million_row_workbook_ends_with_a_clear_error_in_time(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    path = hostile.xlsx_with_rows(tmp_path / "huge.xlsx", 1_000_000)
    started = time.monotonic()

    with pytest.raises(LimitExceeded, match="more than 100,000 rows"):
        convert(path, office_pool, Limits(timeout=60))

    assert time.monotonic() - started < 30
    assert not Path(str(path) + ".pdf").exists()


def test_a_workbook_under_the_row_limit_converts(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    path = hostile.xlsx_with_rows(tmp_path / "rows.xlsx", 2_000)

    convert(path, office_pool)

    assert "1999" in pdf_text(str(path) + ".pdf")


@pytest.mark.corpus
def test_the_corpus_nasty_odt_is_refused_for_its_external_entity(
    tmp_path: Path, office_pool: OfficePool, corpus_office: Path
) -> None:
    with pytest.raises(
        UnsupportedDocument, match="declares a DTD or entities in content.xml"
    ):
        convert(corpus_office / "nasty.odt", office_pool)


def test_an_opendocument_with_an_inert_doctype_still_converts(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    """LibreOffice writes `<!DOCTYPE ... "libraries.dtd">` in the Basic parts
    of documents with macros: that alone is not refused."""
    path = hostile.odt_with_macro(tmp_path / "macro.odt", tmp_path / "marker")
    with zipfile.ZipFile(path) as zf:
        lc = zf.read("Basic/script-lc.xml")
    lc = lc.replace(
        b"?>\n",
        b"?>\n<!DOCTYPE library:libraries PUBLIC "
        b'"-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "libraries.dtd">\n',
        1,
    )
    rewritten = files.rewrite_zip(
        path, tmp_path / "doctype.odt", {"Basic/script-lc.xml": lc}
    )

    convert(rewritten, office_pool)

    assert "A document with a macro" in pdf_text(str(rewritten) + ".pdf")


def test_the_pool_is_whole_after_the_hostile_files(office_pool: OfficePool) -> None:
    stats = office_pool.stats()
    assert len(stats.instances) == 2
