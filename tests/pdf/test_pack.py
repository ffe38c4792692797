"""Zip packing: safe, unique entry names; entries identical to their files."""

from __future__ import annotations

import random
import zipfile
from pathlib import Path

import pymupdf
import pytest

from engines.errors import EngineError
from engines.pdf.pack import entry_names, zip_entries


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Report", "Report.pdf"),
        ("report.pdf", "report.pdf"),
        ("Annual.PDF", "Annual.PDF"),
        ("../x", "x.pdf"),
        ("../../etc/passwd", "etc_passwd.pdf"),
        ("a/b", "a_b.pdf"),
        ("a\\b", "a_b.pdf"),
        ("C:\\Windows\\win.ini", "C__Windows_win.ini.pdf"),
        (".hidden", "hidden.pdf"),
        ("tab\there\nnew\x00line\x7f", "tab here new line.pdf"),
        ("  spaced   out  ", "spaced out.pdf"),
        ("Straße Über", "Straße Über.pdf"),
        ("تقرير سنوي", "تقرير سنوي.pdf"),
        ("日本語の報告書", "日本語の報告書.pdf"),
        ("Cafe\u0301", "Café.pdf"),  # NFC: one é, as typed on most keyboards
        # A right-to-left override would show "invoiceexe.pdf".
        ("invoice\u202efdp.exe", "invoicefdp.exe.pdf"),
        ("CON", "_CON.pdf"),
        ('what? "quoted" <x>|*', "what_ _quoted_ _x___.pdf"),
    ],
)
def test_a_title_becomes_a_safe_file_name(title: str, name: str) -> None:
    assert entry_names([title]) == [name]


@pytest.mark.parametrize("title", [None, "", "   ", "..", ".", "/", "\x01\x02", ".pdf"])
def test_a_missing_or_empty_title_gets_a_numbered_name(title: str | None) -> None:
    assert entry_names(["first", title]) == ["first.pdf", "document-2.pdf"]


def test_equal_names_are_numbered_ignoring_case() -> None:
    names = entry_names(["Report", "report", "REPORT.pdf", "other", "Report"])

    assert names == [
        "Report.pdf",
        "report (2).pdf",
        "REPORT (3).pdf",
        "other.pdf",
        "Report (4).pdf",
    ]


def test_a_numbered_name_never_collides_with_a_given_one() -> None:
    names = entry_names(["a", "a (2)", "a", None, "document-4"])

    assert len({n.casefold() for n in names}) == len(names)
    assert names[:3] == ["a.pdf", "a (2).pdf", "a (3).pdf"]
    assert names[3] == "document-4.pdf"


def test_long_titles_are_cut_to_fit_a_file_name() -> None:
    names = entry_names(["é" * 300, "é" * 300])

    assert all(len(n.encode()) <= 255 for n in names)
    assert names[0].endswith(".pdf") and names[1].endswith(" (2).pdf")
    assert names[0] != names[1]


def test_another_extension_can_be_used_for_a_container() -> None:
    assert entry_names(["one", None, "two.zip"], extension=".zip") == [
        "one.zip",
        "document-2.zip",
        "two.zip",
    ]


def _pdf(path: Path, label: str, photo: bool = False) -> str:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), f"document {label}")
    if photo:  # incompressible bytes, like a scan
        noise = random.Random(label).randbytes(300 * 300 * 3)
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, 300, 300, noise, False)
        page.insert_image(pymupdf.Rect(72, 100, 372, 400), pixmap=pixmap)
    doc.save(str(path))
    doc.close()
    return str(path)


def test_the_zip_holds_every_file_byte_for_byte_under_its_name(tmp_path: Path) -> None:
    files = [
        _pdf(tmp_path / "1.pdf", "one"),
        _pdf(tmp_path / "2.pdf", "two"),
        _pdf(tmp_path / "3.pdf", "three", photo=True),
        _pdf(tmp_path / "4.pdf", "four"),
    ]
    titles = ["../evil", "Résumé", "résumé", None]
    dest = tmp_path / "out.zip"

    names = zip_entries(list(zip(titles, files, strict=True)), str(dest))

    assert names == ["evil.pdf", "Résumé.pdf", "résumé (2).pdf", "document-4.pdf"]
    with zipfile.ZipFile(dest) as zf:
        assert zf.testzip() is None
        assert zf.namelist() == names
        for name, path in zip(names, files, strict=True):
            assert zf.read(name) == Path(path).read_bytes()
        infos = zf.infolist()
    assert all(info.flag_bits & 0x800 for info in infos[1:3])  # UTF-8 names


def test_incompressible_files_are_stored_and_others_deflated(tmp_path: Path) -> None:
    plain = tmp_path / "plain.pdf"
    doc = pymupdf.open()
    for n in range(400):  # uncompressed text: deflates well
        doc.new_page().insert_text((72, 72), f"page {n} " * 20)
    doc.save(str(plain))
    scan = _pdf(tmp_path / "scan.pdf", "scan", photo=True)
    dest = tmp_path / "out.zip"

    zip_entries([("plain", str(plain)), ("scan", scan)], str(dest))

    with zipfile.ZipFile(dest) as zf:
        methods = {info.filename: info.compress_type for info in zf.infolist()}
        assert zf.read("scan.pdf") == Path(scan).read_bytes()
    assert methods == {
        "plain.pdf": zipfile.ZIP_DEFLATED,
        "scan.pdf": zipfile.ZIP_STORED,
    }


def test_a_missing_file_is_an_engine_error_and_leaves_no_zip(tmp_path: Path) -> None:
    good = _pdf(tmp_path / "good.pdf", "good")
    dest = tmp_path / "out.zip"

    with pytest.raises(EngineError):
        zip_entries([("good", good), ("gone", str(tmp_path / "gone.pdf"))], str(dest))

    assert not dest.exists()
