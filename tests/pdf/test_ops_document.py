"""Sanitize, metadata, outline, encrypt, unlock and optimize, read back by qpdf,
poppler (pdfinfo, pdfimages, pdftotext) and pikepdf."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import docx
import msoffcrypto.format.ooxml
import numpy as np
import pikepdf
import pymupdf
import pytest
from pikepdf import Array, Dictionary, Name, String

from engines.errors import PasswordRequired
from engines.pdf.ops import (
    OpsContext,
    SourceMark,
    apply_operations,
    parse_operations,
    unlock,
)
from tests.pdf.ops_readers import qpdf_check, words


def qdf(path: Path) -> bytes:
    """The file uncompressed, objects one by one (qpdf's QDF form)."""
    return subprocess.run(
        ["qpdf", "--qdf", "--object-streams=disable", str(path), "-"],
        check=True,
        capture_output=True,
    ).stdout


def pdfinfo(path: Path, password: str | None = None) -> str:
    command = ["pdfinfo", *(["-upw", password] if password else []), str(path)]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("document")


@pytest.fixture(scope="module")
def dirty(folder: Path) -> Path:
    """Four pages carrying metadata, XMP, scripts, an attachment, a file
    annotation, a web link and a link to page 3."""
    doc = pymupdf.open()
    for n in range(4):
        doc.new_page().insert_text((72, 72), f"Page text {n + 1}")
    doc.set_metadata({"title": "Old title", "author": "Someone", "producer": "x"})
    doc.set_xml_metadata("<x:xmpmeta xmlns:x='adobe:ns:meta/'></x:xmpmeta>")
    doc.embfile_add("notes.txt", b"attached")
    page = doc[0]
    page.add_file_annot((300, 300), b"more", "more.txt")
    page.insert_link(
        {
            "kind": pymupdf.LINK_URI,
            "from": pymupdf.Rect(72, 100, 200, 120),
            "uri": "https://example.com/",
        }
    )
    page.insert_link(
        {"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, 130, 200, 150), "page": 2}
    )
    doc.set_toc([[1, "Chapter", 1], [2, "Section", 2], [1, "Annex", 4]])
    raw = io.BytesIO(doc.tobytes())
    path = folder / "dirty.pdf"
    with pikepdf.open(raw) as pdf:
        script = Dictionary(S=Name.JavaScript, JS=String("app.alert(1)"))
        pdf.Root.Names.JavaScript = Dictionary(Names=Array([String("hello"), script]))
        pdf.Root.OpenAction = pdf.make_indirect(script)
        pdf.pages[1].obj.AA = Dictionary(
            O=Dictionary(S=Name.JavaScript, JS=String("1"))
        )
        pdf.save(path)
    return path


def test_sanitize_removes_and_reports_everything_but_internal_links(
    dirty: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    report = apply_operations(
        str(dirty), str(out), parse_operations([{"type": "sanitize"}])
    )
    assert report.removed == {
        "metadata": 3,
        "xmp": 1,
        "javascript": 3,
        "embeddedFiles": 2,
        "externalLinks": 1,
    }
    body = qdf(out)
    for gone in (
        b"/JavaScript",
        b"/JS",
        b"/EmbeddedFiles",
        b"/EmbeddedFile",
        b"/FileAttachment",
        b"/Metadata",
        b"/URI",
        b"/OpenAction",
        b"/AA",
        b"Old title",
    ):
        assert gone not in body, gone
    assert qpdf_check(out).returncode == 0
    with pikepdf.open(out) as pdf:
        links = [a for a in pdf.pages[0].obj.Annots if a.Subtype == Name.Link]
        assert len(links) == 1  # the one to page 3 stays
    assert "JavaScript:      no" in pdfinfo(out)


def test_metadata_is_written_after_the_sanitizer(dirty: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    apply_operations(
        str(dirty),
        str(out),
        parse_operations(
            [
                {
                    "type": "metadata",
                    "title": "Report 2026",
                    "author": "Records",
                    "subject": "S",
                    "keywords": ["alpha", "beta"],
                },
                {"type": "sanitize"},
            ]
        ),
    )
    info = pdfinfo(out)
    assert "Title:           Report 2026" in info and "Author:          Records" in info
    assert "Keywords:        alpha, beta" in info and "Producer" not in info
    assert b"/Metadata" not in qdf(out)  # no XMP comes back


def test_metadata_keeps_an_existing_xmp_packet_consistent(
    dirty: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    apply_operations(
        str(dirty), str(out), parse_operations([{"type": "metadata", "title": "New"}])
    )
    with pikepdf.open(out) as pdf:
        assert str(pdf.docinfo.Title) == "New" and str(pdf.docinfo.Author) == "Someone"
        assert pdf.open_metadata()["dc:title"] == "New"


def outline_of(path: Path) -> list[tuple[int, str, int]]:
    """(level, title, page from 1) of each bookmark, read by pikepdf."""
    found: list[tuple[int, str, int]] = []
    with pikepdf.open(path) as pdf:
        pages: dict[object, int] = {
            p.objgen: n for n, p in enumerate(pdf.pages, start=1)
        }

        def walk(items: list[pikepdf.OutlineItem], level: int) -> None:
            for item in items:
                target: Any = item.destination or item.action.D  # type: ignore[union-attr]
                target = target[0]
                found.append((level, item.title, pages[target.objgen]))
                walk(item.children, level + 1)

        with pdf.open_outline() as outline:
            walk(outline.root, 1)
    return found


def test_outline_of_merged_sources_keeps_their_own_bookmarks_below(
    dirty: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    context = OpsContext(
        sources=[SourceMark("Exhibit A", 0), SourceMark("Exhibit B", 2)]
    )
    apply_operations(
        str(dirty),
        str(out),
        parse_operations([{"type": "outline", "keepExisting": True}]),
        context,
    )
    assert outline_of(out) == [
        (1, "Exhibit A", 1),
        (2, "Chapter", 1),
        (3, "Section", 2),
        (1, "Exhibit B", 3),
        (2, "Annex", 4),
    ]


def test_outline_from_a_given_list_replaces_the_old_one(
    dirty: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    apply_operations(
        str(dirty),
        str(out),
        parse_operations(
            [
                {
                    "type": "outline",
                    "bookmarks": [
                        {"title": "Start", "page": 1},
                        {"title": "Detail", "page": 3, "level": 2},
                    ],
                }
            ]
        ),
    )
    assert outline_of(out) == [(1, "Start", 1), (2, "Detail", 3)]


def test_encrypted_output_opens_only_with_its_password(
    dirty: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    ops = parse_operations(
        [
            {
                "type": "encrypt",
                "userPassword": "open sesame",
                "ownerPassword": "owner-pw",
                "permissions": ["print"],
            }
        ]
    )
    assert "open sesame" not in repr(ops)
    apply_operations(str(dirty), str(out), ops)
    assert qpdf_check(out).returncode != 0
    assert qpdf_check(out, "wrong").returncode != 0
    assert qpdf_check(out, "open sesame").returncode == 0
    shown = subprocess.run(
        ["qpdf", "--show-encryption", "--password=open sesame", str(out)],
        capture_output=True,
        text=True,
    ).stdout
    assert "R = 6" in shown and "AESv3" in shown
    assert (
        "print low resolution: allowed" in shown
        and "extract for any purpose: not allowed" in shown
    )
    assert words(out, password="open sesame")[0].find("text")
    assert qpdf_check(out, "owner-pw").returncode == 0


def test_unlock_writes_a_decrypted_copy_of_a_protected_pdf(
    dirty: Path, tmp_path: Path
) -> None:
    locked, opened = tmp_path / "locked.pdf", tmp_path / "opened.pdf"
    with pikepdf.open(dirty) as pdf:
        pdf.save(locked, encryption=pikepdf.Encryption(owner="o", user="s3cret", R=6))
    with pytest.raises(PasswordRequired) as caught:
        unlock(str(locked), str(opened), "guess")
    assert "guess" not in str(caught.value)
    assert unlock(str(locked), str(opened), "s3cret") is True
    assert qpdf_check(opened).returncode == 0
    assert "Encrypted:       no" in pdfinfo(opened)
    assert unlock(str(dirty), str(tmp_path / "x.pdf"), "any") is False


def test_unlock_decrypts_a_protected_word_file(tmp_path: Path) -> None:
    plain, locked, opened = (
        tmp_path / "a.docx",
        tmp_path / "b.docx",
        tmp_path / "c.docx",
    )
    document = docx.Document()
    document.add_paragraph("Quarterly figures")
    document.save(str(plain))
    with open(plain, "rb") as src, open(locked, "wb") as dest:
        msoffcrypto.format.ooxml.OOXMLFile(src).encrypt("pw-123", dest)
    with pytest.raises(PasswordRequired):
        unlock(str(locked), str(opened), "nope")
    assert not opened.exists()
    assert unlock(str(locked), str(opened), "pw-123") is True
    assert docx.Document(str(opened)).paragraphs[0].text == "Quarterly figures"


@pytest.fixture(scope="module")
def heavy(folder: Path) -> Path:
    """Two pages each with its own copy of the same 1,500 px photo-like image
    (noise: it does not compress) drawn 200 pt wide (540 dpi), as two merged
    sources would have."""
    noise = np.random.default_rng(7).integers(0, 255, (1500, 1500, 3), dtype=np.uint8)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, 1500, 1500, noise.tobytes(), False)
    one = pymupdf.open()
    one.new_page().insert_image(pymupdf.Rect(72, 72, 272, 272), pixmap=pixmap)
    data = one.tobytes()
    path = folder / "heavy.pdf"
    with (
        pikepdf.open(io.BytesIO(data)) as first,
        pikepdf.open(io.BytesIO(data)) as second,
    ):
        first.pages.extend(second.pages)
        first.save(path)
    return path


def pdfimages(path: Path) -> list[tuple[int, int, int]]:
    """(object number, width, height) of each image drawn, by poppler."""
    out = subprocess.run(
        ["pdfimages", "-list", str(path)], check=True, capture_output=True, text=True
    ).stdout
    rows = [line.split() for line in out.splitlines()[2:]]
    return [(int(r[10]), int(r[3]), int(r[4])) for r in rows]


def test_optimize_downsamples_merges_and_linearizes(
    heavy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    before = pdfimages(heavy)
    assert len({obj for obj, _, _ in before}) == 2
    report = apply_operations(
        str(heavy),
        str(out),
        parse_operations(
            [
                {
                    "type": "optimize",
                    "imageDpi": 150,
                    "jpegQuality": 70,
                    "linearize": True,
                }
            ]
        ),
    )
    after = pdfimages(out)
    assert len(after) == 2 and len({obj for obj, _, _ in after}) == 1  # one copy
    assert all(abs(w - 200 * 150 / 72) < 10 for _, w, _ in after)
    assert out.stat().st_size < heavy.stat().st_size / 5
    assert report.removed["duplicates"] >= 1
    linear = subprocess.run(
        ["qpdf", "--check-linearization", str(out)], capture_output=True, text=True
    )
    assert linear.returncode == 0, linear.stdout
    assert re.search(rb"/Type\s*/ObjStm", out.read_bytes())
