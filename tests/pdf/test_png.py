"""Page images written by engines/pdf/png.py: decoded by Pillow (a PNG
decoder of its own, not MuPDF's), the same pixels as MuPDF's own PNG writer, a
valid file chunk by chunk."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from engines.pdf.png import png_bytes


def _page(tmp_path: Path) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 60), "Colour and text", fontsize=24, color=(0.8, 0.1, 0.2))
    page.draw_rect(pymupdf.Rect(20, 100, 280, 180), color=(0, 0, 1), fill=(0, 1, 0))
    return page


@pytest.mark.parametrize("colourspace", ["RGB", "GRAY"])
def test_the_pixels_are_mupdfs_and_the_file_is_valid(
    tmp_path: Path, colourspace: str
) -> None:
    page = _page(tmp_path)
    space = pymupdf.csRGB if colourspace == "RGB" else pymupdf.csGRAY
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(2, 2), colorspace=space, alpha=False)
    ours = png_bytes(pixmap)

    image = Image.open(io.BytesIO(ours))
    image.load()
    reference = Image.open(io.BytesIO(pixmap.tobytes("png")))
    assert image.mode == ("RGB" if colourspace == "RGB" else "L")
    assert image.size == (600, 400)
    assert image.tobytes() == reference.tobytes(), "the pixels MuPDF drew"
    assert image.info["dpi"] == pytest.approx(reference.info["dpi"], abs=0.05)
    # The green fill, where the rectangle is (y 100..180 pt, drawn at 2x).
    assert image.getpixel((100, 280)) == ((0, 255, 0) if colourspace == "RGB" else 220)

    # Every chunk's CRC is right, and they come in PNG's order.
    kinds, offset = [], 8
    assert ours[:8] == b"\x89PNG\r\n\x1a\n"
    while offset < len(ours):
        length, kind = struct.unpack(">I4s", ours[offset : offset + 8])
        data = ours[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", ours[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(data, zlib.crc32(kind)), kind
        kinds.append(kind)
        offset += 12 + length
    assert kinds == [b"IHDR", b"pHYs", b"IDAT", b"IEND"]


def test_a_pixmap_with_alpha_is_left_to_mupdfs_writer(tmp_path: Path) -> None:
    page = _page(tmp_path)
    pixmap = page.get_pixmap(alpha=True)
    image = Image.open(io.BytesIO(png_bytes(pixmap)))
    assert image.mode == "RGBA" and image.size == (300, 200)
