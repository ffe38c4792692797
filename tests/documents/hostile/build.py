"""Hostile PDFs, each built by code from a small ordinary one: malformed, truncated,
encrypted, decompression bombs, active content, absurd page boxes, deep nesting,
lying page counts. Every file is a few KB at most.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Callable
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from tests.conftest import make_pdf_bytes

MiB = 1024 * 1024


def _base(pages: int = 2) -> bytes:
    return make_pdf_bytes(pages, prefix="hostile page")


def _rewrite(data: bytes, change: Callable[[pikepdf.Pdf], None], **save: Any) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        change(pdf)
        out = io.BytesIO()
        pdf.save(out, **save)
        return out.getvalue()


def malformed() -> bytes:
    """A PDF header, then 4 KB of noise: no objects, no xref, no trailer."""
    noise, block = bytearray(), b"hostile"
    while len(noise) < 4096:
        block = hashlib.sha256(block).digest()
        noise += block
    return b"%PDF-1.7\n" + bytes(noise) + b"\n%%EOF\n"


def truncated() -> bytes:
    """A three-page PDF cut in the middle (its last page object is lost)."""
    data = _base(3)
    return data[: len(data) // 2]


def encrypted(user: str) -> bytes:
    return _rewrite(
        _base(),
        lambda pdf: None,
        encryption=pikepdf.Encryption(user=user, owner="owner-secret", R=6),
    )


def _flate_of_fill(total: int, fill: bytes) -> bytes:
    """A zlib stream of `total` bytes of `fill`, built by repeating one flushed
    block instead of compressing gigabytes (instant; valid adler32)."""
    chunk = fill * MiB
    deflater = zlib.compressobj(9)
    first = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    block = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    end = deflater.flush(zlib.Z_FINISH)[:-4]
    checksum = 1
    for _ in range(total // MiB):
        checksum = zlib.adler32(chunk, checksum)
    return first + block * (total // MiB - 1) + end + struct.pack(">I", checksum)


# qpdf would otherwise decode and recompress the bomb while writing it.
AS_IS = {
    "compress_streams": False,
    "stream_decode_level": pikepdf.StreamDecodeLevel.none,
}


def _double_flate(inner: bytes) -> tuple[bytes, Array]:
    return zlib.compress(inner, 9), Array([Name.FlateDecode, Name.FlateDecode])


def bomb_in_content() -> bytes:
    """6 KB whose first page's content stream inflates to 2 GiB of spaces."""
    data, filters = _double_flate(_flate_of_fill(2048 * MiB, b" "))

    def change(pdf: pikepdf.Pdf) -> None:
        stream = pikepdf.Stream(pdf, b"")
        stream.write(data, filter=filters)
        page = pdf.pages[0].obj
        page.Contents = Array([page.Contents, pdf.make_indirect(stream)])

    return _rewrite(_base(), change, **AS_IS)


def bomb_in_many_streams() -> bytes:
    """Five content streams of 240 MiB each: every one under the limit of one
    stream, together over the limit of all."""
    data, filters = _double_flate(_flate_of_fill(240 * MiB, b" "))

    def change(pdf: pikepdf.Pdf) -> None:
        page = pdf.pages[0].obj
        streams = []
        for _ in range(5):
            stream = pikepdf.Stream(pdf, b"")
            stream.write(data, filter=filters)
            streams.append(pdf.make_indirect(stream))
        page.Contents = Array([page.Contents, *streams])

    return _rewrite(_base(), change, **AS_IS)


def bomb_in_attached_file() -> bytes:
    """6 KB with an attached file that inflates to 2 GiB (an order keeping
    attachments opens it to search and scrub it)."""
    data, filters = _double_flate(_flate_of_fill(2048 * MiB, b"a"))

    def change(pdf: pikepdf.Pdf) -> None:
        stream = pikepdf.Stream(pdf, b"")
        stream.write(data, filter=filters)
        stream.Type = Name.EmbeddedFile
        spec = Dictionary(
            Type=Name.Filespec,
            F=String("log.txt"),
            UF=String("log.txt"),
            EF=Dictionary(F=pdf.make_indirect(stream)),
        )
        pdf.Root.Names = Dictionary(
            EmbeddedFiles=Dictionary(
                Names=Array([String("log.txt"), pdf.make_indirect(spec)])
            )
        )

    return _rewrite(_base(), change, **AS_IS)


def bomb_in_image() -> bytes:
    """12 KB holding a 40,000 x 40,000 RGB image (4.8 GB of samples)."""
    side = 40_000
    data, filters = _double_flate(_flate_of_fill(side * side * 3, b"\xff"))

    def change(pdf: pikepdf.Pdf) -> None:
        image = pikepdf.Stream(pdf, b"")
        image.write(data, filter=filters)
        image.Type, image.Subtype = Name.XObject, Name.Image
        image.Width, image.Height, image.BitsPerComponent = side, side, 8
        image.ColorSpace = Name.DeviceRGB
        page = pdf.pages[0]
        page.add_resource(pdf.make_indirect(image), Name.XObject, Name("/Bomb"))
        page.contents_add(pikepdf.Stream(pdf, b"q 200 0 0 200 100 300 cm /Bomb Do Q"))

    return _rewrite(_base(), change, **AS_IS)


def with_javascript() -> bytes:
    def js(code: str) -> Dictionary:
        return Dictionary(S=Name.JavaScript, JS=String(code))

    def change(pdf: pikepdf.Pdf) -> None:
        pdf.Root.OpenAction = pdf.make_indirect(js("app.alert('open');"))
        tree = Dictionary(Names=Array([String("hello"), pdf.make_indirect(js("1;"))]))
        pdf.Root.Names = Dictionary(JavaScript=pdf.make_indirect(tree))
        for page in pdf.pages:
            page.obj.AA = Dictionary(O=js("app.alert('page');"))
            link = Dictionary(
                Type=Name.Annot,
                Subtype=Name.Link,
                Rect=Array([72, 72, 200, 100]),
                A=js("app.alert('link');"),
            )
            page.obj.Annots = Array([pdf.make_indirect(link)])

    return _rewrite(_base(), change)


def with_embedded_files() -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.attachments["payload.txt"] = pikepdf.AttachedFileSpec(
            pdf, b"the unredacted original\n", filename="payload.txt"
        )
        spec = pikepdf.AttachedFileSpec(pdf, b"annotation payload\n", filename="a.txt")
        for page in pdf.pages:
            annot = Dictionary(
                Type=Name.Annot,
                Subtype=Name.FileAttachment,
                Rect=Array([72, 300, 90, 320]),
                FS=spec.obj,
                Contents=String("attached"),
            )
            page.obj.Annots = Array([pdf.make_indirect(annot)])

    return _rewrite(_base(), change)


def with_media_box(box: list[float]) -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.pages[1].obj.MediaBox = Array(box)

    return _rewrite(_base(), change)


def raw_pdf(objects: list[bytes]) -> bytes:
    """Objects 1..n serialised by hand with a correct xref (object 1: catalog)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def one_page(page_extra: bytes = b"", content_extra: bytes = b"") -> bytes:
    content = b"BT /F1 14 Tf 72 700 Td (nested page 1) Tj ET " + content_extra
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >>" + page_extra + b" >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


DEPTH = 100_000


def nested_arrays_in_page() -> bytes:
    return one_page(page_extra=b" /Deep " + b"[" * DEPTH + b"]" * DEPTH)


def nested_dicts_in_page() -> bytes:
    return one_page(page_extra=b" /Deep " + b"<< /A " * DEPTH + b"0" + b" >>" * DEPTH)


def nested_arrays_in_content() -> bytes:
    return one_page(content_extra=b"[" * DEPTH + b"]" * DEPTH + b" pop")


def page_count_claim(claim: int) -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.Root.Pages.Count = claim

    return _rewrite(_base(), change)
