"""The entry points route each family to its converter, and refuse the rest
with a message a user can act on."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.convert import (
    Detected,
    Family,
    OfficeUnavailable,
    detect,
    to_pdf,
    unpack,
)
from engines.errors import UnsupportedDocument
from tests.convert import files


def test_audio_and_video_have_no_pages(tmp_path: Path) -> None:
    path = tmp_path / "clip"
    path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(200))

    with pytest.raises(
        UnsupportedDocument, match="MP4 video: audio and video have no pages"
    ):
        to_pdf(str(path), detect(str(path)), str(tmp_path / "out.pdf"))


def test_an_unknown_format_is_refused_by_its_type(tmp_path: Path) -> None:
    path = tmp_path / "blob"
    path.write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(200))

    with pytest.raises(
        UnsupportedDocument, match=r"\(application/x-7z-compressed\) is not one"
    ):
        to_pdf(str(path), detect(str(path)), str(tmp_path / "out.pdf"))


def test_office_files_need_a_pool(tmp_path: Path) -> None:
    path = files.make_docx(tmp_path / "a.docx", ["Title"])

    with pytest.raises(OfficeUnavailable, match="no LibreOffice pool"):
        to_pdf(str(path), detect(str(path)), str(tmp_path / "out.pdf"))


@pytest.mark.parametrize("family", [Family.PDF, Family.MAIL, Family.ARCHIVE])
def test_pdfs_and_containers_are_not_rendered(tmp_path: Path, family: Family) -> None:
    with pytest.raises(ValueError):
        to_pdf(str(tmp_path / "x"), Detected("x/y", family), str(tmp_path / "out.pdf"))


def test_only_containers_are_unpacked(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        unpack(str(tmp_path / "x"), Detected("text/plain", Family.TEXT), str(tmp_path))
