"""Test files written on the spot: Office documents (with python-docx,
openpyxl, python-pptx, or by hand for OpenDocument and RTF), e-mails, an
Outlook-like .msg, archives and hostile variants of them."""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Sequence
from pathlib import Path

import docx
import openpyxl
import pptx
from PIL import Image

WORDS = (
    "harbour lantern meadow orchard quarry saddle thistle velvet walnut zephyr "
    "bramble cinder dapple ember fennel gossamer hazel juniper kestrel lichen "
    "marigold nectar osprey pebble quill russet sorrel tamarind umber willow"
).split()


def sentence(rng: random.Random, words: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def png_bytes(color: str = "red", size: tuple[int, int] = (60, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def make_docx(path: Path, paragraphs: Sequence[str], *, image: bool = False) -> Path:
    document = docx.Document()
    document.add_heading(paragraphs[0], 0)
    for text in paragraphs[1:]:
        document.add_paragraph(text)
    if image:
        document.add_picture(io.BytesIO(png_bytes()))
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(1, 1).text = "tablecellalpha", "tablecellomega"
    document.save(str(path))
    return path


def make_xlsx(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(list(row))
    book.save(str(path))
    return path


def make_pptx(path: Path, slides: Sequence[tuple[str, str]]) -> Path:
    deck = pptx.Presentation()
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    deck.save(str(path))
    return path


ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" '
    'xmlns:ooo="http://openoffice.org/2004/office" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
)


def make_odt(
    path: Path,
    body: str,
    *,
    scripts: str = "",
    extra: dict[str, bytes] | None = None,
    manifest_extra: str = "",
    mimetype: str = "application/vnd.oasis.opendocument.text",
) -> Path:
    """An OpenDocument text whose office:text holds the XML `body`."""
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {ODF_NS} '
        f'office:version="1.2">{scripts}<office:body><office:text>{body}'
        "</office:text></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{mimetype}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" '
        'manifest:media-type="text/xml"/>'
        f"{manifest_extra}</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        zf.writestr(
            "META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED
        )
        for name, data in (extra or {}).items():
            zf.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def odt_paragraphs(texts: Sequence[str]) -> str:
    return "".join(f"<text:p>{text}</text:p>" for text in texts)


def make_rtf(path: Path, paragraphs: Sequence[str], extra: str = "") -> Path:
    body = "".join(f"{{\\pard {text}\\par}}\n" for text in paragraphs)
    path.write_text(
        "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Liberation Serif;}}\n"
        + body
        + extra
        + "}\n",
        encoding="ascii",
    )
    return path


def rewrite_zip(source: Path, dest: Path, replace: dict[str, bytes]) -> Path:
    """A copy of the ZIP `source` with the entries of `replace` replaced or
    added."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(dest, "w") as zout:
        for info in zin.infolist():
            if info.filename not in replace:
                zout.writestr(info, zin.read(info.filename))
        for name, data in replace.items():
            zout.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return dest


# Outlook .msg ([MS-OXMSG]): property tags are (id << 16) | type.
_UNICODE, _BINARY, _INT32, _TIME = 0x001F, 0x0102, 0x0003, 0x0040


def _props_stream(
    header: bytes, fixed: Sequence[tuple[int, bytes]], sizes: dict[int, int]
) -> bytes:
    """A __properties_version1.0 stream: `fixed` holds (tag, 8-byte value) of
    fixed-size properties, `sizes` the byte size of variable ones by tag."""
    entries = b""
    for tag, value in fixed:
        entries += tag.to_bytes(4, "little") + (6).to_bytes(4, "little") + value
    for tag, size in sizes.items():
        entries += tag.to_bytes(4, "little") + (6).to_bytes(4, "little")
        entries += size.to_bytes(4, "little") + bytes(4)
    return header + entries


def _stream_name(tag: int) -> str:
    return f"__substg1.0_{tag:08X}"


def make_msg(
    path: Path,
    *,
    subject: str,
    body: str,
    html: str | None = None,
    sender: str = "Alice Example <alice@example.org>",
    to: str = "bob@example.com",
    attachments: Sequence[tuple[str, bytes]] = (),
) -> Path:
    """A minimal Outlook message (IPM.Note) written with extract-msg's OLE
    writer: subject, bodies, transport headers, by-value attachments."""
    from extract_msg.ole_writer import OleWriter

    writer = OleWriter()
    strings = {
        0x001A0000 | _UNICODE: "IPM.Note",
        0x00370000 | _UNICODE: subject,
        0x10000000 | _UNICODE: body,
        0x0E040000 | _UNICODE: to,
        0x0C1A0000 | _UNICODE: sender,
        0x007D0000 | _UNICODE: (
            f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
            "Date: Tue, 03 Nov 2026 14:05:00 +0100\r\n\r\n"
        ),
    }
    sizes: dict[int, int] = {}
    for tag, text in strings.items():
        data = text.encode("utf-16-le")
        writer.addEntry(_stream_name(tag), data=data)
        sizes[tag] = len(data) + 2
    if html is not None:
        tag = 0x10130000 | _BINARY
        writer.addEntry(_stream_name(tag), data=html.encode())
        sizes[tag] = len(html.encode())
    for name in (
        "__substg1.0_00020102",
        "__substg1.0_00030102",
        "__substg1.0_00040102",
    ):
        writer.addEntry(f"__nameid_version1.0/{name}", data=b"")
    for number, (name, data) in enumerate(attachments):
        storage = f"__attach_version1.0_#{number:08X}"
        writer.addEntry(storage, storage=True)
        parts = {
            0x37010000 | _BINARY: data,
            0x37070000 | _UNICODE: name.encode("utf-16-le"),
            0x37040000 | _UNICODE: name.encode("utf-16-le"),
        }
        attach_sizes = {}
        for tag, value in parts.items():
            writer.addEntry(f"{storage}/{_stream_name(tag)}", data=value)
            attach_sizes[tag] = len(value) + (2 if tag & 0xFFFF == _UNICODE else 0)
        fixed = [(0x37050000 | _INT32, (1).to_bytes(8, "little"))]  # by value
        writer.addEntry(
            f"{storage}/__properties_version1.0",
            data=_props_stream(bytes(8), fixed, attach_sizes),
        )
    count = len(attachments)
    header = bytes(8) + (0).to_bytes(4, "little") + count.to_bytes(4, "little")
    header += (0).to_bytes(4, "little") + count.to_bytes(4, "little") + bytes(8)
    # PR_CLIENT_SUBMIT_TIME, a FILETIME: 2026-11-03 13:05:00 UTC.
    filetime = (1793711100 + 11644473600) * 10_000_000
    sent = [(0x00390000 | _TIME, filetime.to_bytes(8, "little"))]
    writer.addEntry("__properties_version1.0", data=_props_stream(header, sent, sizes))
    writer.write(str(path))
    return path


def make_ole(path: Path, streams: dict[str, bytes]) -> Path:
    """An OLE2 compound file holding `streams` (e.g. an encrypted OOXML's
    EncryptionInfo and EncryptedPackage)."""
    from extract_msg.ole_writer import OleWriter

    writer = OleWriter()
    for name, data in streams.items():
        writer.addEntry(name, data=data)
    writer.write(str(path))
    return path
