"""Format detection reads the bytes, never the name."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.convert import Family, detect
from tests.convert import files

OOXML = "application/vnd.openxmlformats-officedocument"


def write(tmp_path: Path, data: bytes, name: str = "upload.bin") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def image_bytes(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "blue").save(out, fmt)
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "mime"),
    [
        ("PNG", "image/png"),
        ("JPEG", "image/jpeg"),
        ("TIFF", "image/tiff"),
        ("GIF", "image/gif"),
        ("BMP", "image/bmp"),
        ("WEBP", "image/webp"),
    ],
)
def test_images_are_recognised_by_their_magic(
    tmp_path: Path, fmt: str, mime: str
) -> None:
    found = detect(str(write(tmp_path, image_bytes(fmt), "picture.pdf")))

    assert (found.mime_type, found.family) == (mime, Family.IMAGE)


@pytest.mark.parametrize(
    ("head", "mime"),
    [
        (b"\x00\x00\x00\x18ftypmp42" + bytes(100), "video/mp4"),
        (b"\x00\x00\x00\x14ftypqt  " + bytes(100), "video/quicktime"),
        (b"\x00\x00\x00\x20ftypM4A " + bytes(100), "audio/mp4"),
        (b"ID3\x04\x00" + bytes(100), "audio/mpeg"),
        (b"\xff\xfb\x90\x64" + bytes(100), "audio/mpeg"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(100), "audio/wav"),
        (b"OggS\x00\x02" + bytes(100), "audio/ogg"),
        (b"fLaC\x00\x00\x00\x22" + bytes(100), "audio/flac"),
        (b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01webm" + bytes(100), "video/webm"),
        (b"RIFF\x24\x00\x00\x00AVI LIST" + bytes(100), "video/x-msvideo"),
    ],
)
def test_audio_and_video_are_media(tmp_path: Path, head: bytes, mime: str) -> None:
    found = detect(str(write(tmp_path, head)))

    assert (found.mime_type, found.family) == (mime, Family.MEDIA)


def test_a_pdf_is_recognised_even_after_some_junk(tmp_path: Path) -> None:
    found = detect(str(write(tmp_path, b"junk\r\n%PDF-1.7\n%...", "x.docx")))

    assert (found.mime_type, found.family) == ("application/pdf", Family.PDF)


@pytest.mark.parametrize(
    ("maker", "mime", "extension"),
    [
        ("docx", f"{OOXML}.wordprocessingml.document", "docx"),
        ("xlsx", f"{OOXML}.spreadsheetml.sheet", "xlsx"),
        ("pptx", f"{OOXML}.presentationml.presentation", "pptx"),
    ],
)
def test_ooxml_packages_are_told_apart_by_their_main_part(
    tmp_path: Path, maker: str, mime: str, extension: str
) -> None:
    path = tmp_path / "no-extension"
    if maker == "docx":
        files.make_docx(path, ["Title", "text"])
    elif maker == "xlsx":
        files.make_xlsx(path, [["a", 1]])
    else:
        files.make_pptx(path, [("Title", "body")])

    found = detect(str(path))

    assert (found.mime_type, found.family, found.extension) == (
        mime,
        Family.OFFICE,
        extension,
    )


def test_a_macro_enabled_word_document_is_a_docm(tmp_path: Path) -> None:
    source = files.make_docx(tmp_path / "a.docx", ["Title"])
    with zipfile.ZipFile(source) as zf:
        types = zf.read("[Content_Types].xml").replace(
            b"wordprocessingml.document.main+xml",
            b"x",
        )
    types = types.replace(
        b'ContentType="application/vnd.openxmlformats-officedocument.x"',
        b'ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"',
    )
    path = files.rewrite_zip(source, tmp_path / "b", {"[Content_Types].xml": types})

    assert detect(str(path)).extension == "docm"


@pytest.mark.parametrize(
    ("mimetype", "extension"),
    [
        ("application/vnd.oasis.opendocument.text", "odt"),
        ("application/vnd.oasis.opendocument.spreadsheet", "ods"),
        ("application/vnd.oasis.opendocument.presentation", "odp"),
        ("application/vnd.oasis.opendocument.graphics", "odg"),
    ],
)
def test_opendocument_packages_are_read_from_their_mimetype_entry(
    tmp_path: Path, mimetype: str, extension: str
) -> None:
    path = files.make_odt(tmp_path / "doc.zip", "", mimetype=mimetype)

    found = detect(str(path))

    assert (found.mime_type, found.extension, found.encrypted) == (
        mimetype,
        extension,
        False,
    )


def test_an_encrypted_opendocument_is_flagged(tmp_path: Path) -> None:
    path = files.make_odt(
        tmp_path / "secret.odt",
        "",
        manifest_extra="<manifest:encryption-data/>",
    )

    assert detect(str(path)).encrypted


def test_a_plain_zip_is_an_archive(tmp_path: Path) -> None:
    path = tmp_path / "a.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")

    found = detect(str(path))

    assert (found.mime_type, found.family) == ("application/zip", Family.ARCHIVE)


@pytest.mark.parametrize(
    ("streams", "mime", "family", "encrypted"),
    [
        (
            {
                "EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60),
                "EncryptedPackage": bytes(600),
            },
            "application/x-encrypted-ooxml",
            Family.OFFICE,
            True,
        ),
        # [MS-DOC] FIB: wIdent 0xA5EC, fEncrypted (0x0100) in the flags at 0x0A.
        (
            {"WordDocument": b"\xec\xa5\xc1\x00" + bytes(6) + b"\x00\x01" + bytes(600)},
            "application/msword",
            Family.OFFICE,
            True,
        ),
        (
            {"WordDocument": b"\xec\xa5\xc1\x00" + bytes(610)},
            "application/msword",
            Family.OFFICE,
            False,
        ),
        # [MS-XLS]: BOF record, then FILEPASS (0x002F).
        (
            {
                "Workbook": b"\x09\x08\x02\x00\x00\x06"
                + b"\x2f\x00\x02\x00\x00\x00"
                + bytes(600)
            },
            "application/vnd.ms-excel",
            Family.OFFICE,
            True,
        ),
        (
            {"PowerPoint Document": bytes(600), "EncryptedSummary": bytes(600)},
            "application/vnd.ms-powerpoint",
            Family.OFFICE,
            True,
        ),
    ],
)
def test_compound_files_are_read_from_their_stream_names(
    tmp_path: Path,
    streams: dict[str, bytes],
    mime: str,
    family: Family,
    encrypted: bool,
) -> None:
    path = files.make_ole(tmp_path / "file", streams)

    found = detect(str(path))

    assert (found.mime_type, found.family, found.encrypted) == (mime, family, encrypted)


def test_an_outlook_message_is_mail(tmp_path: Path) -> None:
    path = files.make_msg(tmp_path / "m", subject="Hello", body="Body")

    found = detect(str(path))

    assert (found.mime_type, found.family) == (
        "application/vnd.ms-outlook",
        Family.MAIL,
    )


def test_rtf_is_an_office_document(tmp_path: Path) -> None:
    path = files.make_rtf(tmp_path / "a.txt", ["Hello"])

    assert detect(str(path)).mime_type == "application/rtf"


ENCODED_TEXTS: list[tuple[str, str, str]] = [
    ("utf-8", "Grüße aus Köln und naïve Cafés in 東京\n" * 20, "utf-8"),
    ("utf-8-sig", "Byte order mark and text\n" * 20, "utf-8-sig"),
    ("utf-16", "Sixteen bits a character: ünïcödé\n" * 20, "utf-16"),
    (
        "cp1252",
        "Le français est une langue romane. Élève, où êtes-vous ? Ça coûte 5 €.\n"
        "Les enfants mangèrent des crêpes; la fête était très réussie.\n" * 6,
        "cp1252",
    ),
    ("shift_jis", "日本語のテキストです。東京都は日本の首都です。\n" * 20, "cp932"),
    (
        "cp1251",
        "Съешь же ещё этих мягких французских булок да выпей чаю.\n" * 10,
        "cp1251",
    ),
]


@pytest.mark.parametrize(("codec", "text", "expected"), ENCODED_TEXTS)
def test_text_comes_with_its_encoding(
    tmp_path: Path, codec: str, text: str, expected: str
) -> None:
    found = detect(str(write(tmp_path, text.encode(codec))))

    assert (found.mime_type, found.family) == ("text/plain", Family.TEXT)
    assert found.encoding == expected
    assert text.encode(codec).decode(found.encoding).lstrip("\ufeff") == text


@pytest.mark.parametrize(
    ("text", "mime", "family"),
    [
        (
            "<!DOCTYPE html>\n<html><body><p>x</p></body></html>",
            "text/html",
            Family.HTML,
        ),
        ("  <!-- a comment -->\n<html lang=en><p>x", "text/html", Family.HTML),
        (
            "From: a@example.org\nTo: b@example.org\nSubject: hi\n\nbody\n",
            "message/rfc822",
            Family.MAIL,
        ),
        (
            "Received: from x by y\nMessage-ID: <1@x>\nSubject: s\n\nbody",
            "message/rfc822",
            Family.MAIL,
        ),
        ("name,age,city\nAda,36,London\nAlan,41,Wilmslow\n", "text/csv", Family.OFFICE),
        ("a;b;c\n1;2;3\n4;5;6\n", "text/csv", Family.OFFICE),
        ("Subject to change: the plan.\nIt is fine.\n", "text/plain", Family.TEXT),
        (
            "One sentence here, with a comma in the middle of it all.\n"
            "Another sentence follows, also with a single comma inside.\n"
            "A third one comes along, and it has exactly one as well.\n",
            "text/plain",
            Family.TEXT,
        ),
    ],
)
def test_text_formats_are_told_apart(
    tmp_path: Path, text: str, mime: str, family: Family
) -> None:
    found = detect(str(write(tmp_path, text.encode())))

    assert (found.mime_type, found.family) == (mime, family)


def test_random_bytes_are_unknown(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    data = bytes(rng.randrange(256) for _ in range(20000))

    assert detect(str(write(tmp_path, data))).family is Family.UNKNOWN


def test_an_empty_file_is_unknown(tmp_path: Path) -> None:
    assert detect(str(write(tmp_path, b""))).family is Family.UNKNOWN


@pytest.mark.corpus
def test_every_office_corpus_file_is_office(
    corpus_office: Path, office_facts: dict[str, Any]
) -> None:
    for name in office_facts:
        found = detect(str(corpus_office / name))
        assert found.family is Family.OFFICE, name
        assert found.extension == name.rsplit(".", 1)[1], name


def test_a_two_column_table_with_one_long_cell_is_still_a_table(tmp_path: Path) -> None:
    """One 600-word note among short cells: the fields are short by the median,
    as a reader of the file sees a table."""
    import csv
    import io

    note = " ".join(f"w{n}" for n in range(600))
    rows = [["key", "note"], ["kone", note]] + [[f"r{n}", f"s{n}"] for n in range(30)]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)

    found = detect(str(write(tmp_path, buffer.getvalue().encode())))

    assert (found.mime_type, found.family) == ("text/csv", Family.OFFICE)
