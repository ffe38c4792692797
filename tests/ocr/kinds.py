"""Scanned pages whose image is stored in each of the ways scanners and PDF
writers store one, for the tests of reading and of redaction.

Each builder takes a scan (grey pixels at their resolution) and returns a
one-page PDF (bytes) on which the image covers the page.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable

import numpy as np
import pikepdf
from PIL import Image, TiffImagePlugin

from tests.ocr.scans import Scan

Builder = Callable[[pikepdf.Pdf, Scan], pikepdf.Stream]
_NAME = pikepdf.Name


def page_with(scan: Scan, builder: Builder, *, in_form: bool = False) -> bytes:
    """A PDF page the size of the scan, its image drawn over the whole page
    (or drawn by a form XObject that the page draws)."""
    pdf = pikepdf.new()
    width, height = scan.size
    image = builder(pdf, scan)
    draw = f"q {width:.4f} 0 0 {height:.4f} 0 0 cm /Im0 Do Q".encode()
    resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    if in_form:
        form = pikepdf.Stream(pdf, draw)
        form.Type, form.Subtype = _NAME.XObject, _NAME.Form
        form.BBox = [0, 0, width, height]
        form.Resources = resources
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=form))
        draw = b"q /Fm0 Do Q"
    return _single_page(scan, draw, resources, pdf)


def _image(
    pdf: pikepdf.Pdf, scan: Scan, data: bytes, **entries: object
) -> pikepdf.Stream:
    height, width = scan.pixels.shape
    stream = pikepdf.Stream(pdf, data)
    stream.Type, stream.Subtype = _NAME.XObject, _NAME.Image
    stream.Width, stream.Height = width, height
    for key, value in entries.items():
        stream[_NAME("/" + key)] = value
    return stream


def _encoded(scan: Scan, mode: str, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    Image.fromarray(scan.pixels, "L").convert(mode).save(out, kind, **options)
    return out.getvalue()


def grey(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """8-bit grey, Flate: what most PDF writers make of a PNG."""
    return _image(
        pdf,
        scan,
        zlib.compress(scan.pixels.tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )


def jpeg(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """Grey JPEG (DCT): phone photos, colour scanners."""
    return _image(
        pdf,
        scan,
        _encoded(scan, "L", "JPEG", quality=85),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=8,
        Filter=_NAME.DCTDecode,
    )


def jpeg_cmyk(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """CMYK JPEG (print workflows); Pillow writes Adobe's inverted CMYK."""
    return _image(
        pdf,
        scan,
        _encoded(scan, "CMYK", "JPEG", quality=85),
        ColorSpace=_NAME.DeviceCMYK,
        BitsPerComponent=8,
        Filter=_NAME.DCTDecode,
        Decode=[1, 0, 1, 0, 1, 0, 1, 0],
    )


def _bits(scan: Scan) -> np.ndarray:
    return (scan.pixels >= 128).astype(np.uint8)


def bilevel(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """1 bit a pixel, Flate (black and white scanners)."""
    return _image(
        pdf,
        scan,
        zlib.compress(np.packbits(_bits(scan), axis=1).tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=1,
        Filter=_NAME.FlateDecode,
    )


def ccitt(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """CCITT Group 4 (fax machines, document scanners)."""
    height, width = scan.pixels.shape
    out = io.BytesIO()
    image = Image.fromarray(_bits(scan) * 255, "L").convert("1")
    image.save(out, "TIFF", compression="group4", tiffinfo={278: height})
    out.seek(0)
    with TiffImagePlugin.TiffImageFile(out) as tiff:
        tags = tiff.tag_v2
        offset, count = tags[273][0], tags[279][0]  # the one strip
        black_is_1 = tags[262] == 0  # WhiteIsZero photometric
    data = out.getvalue()[offset : offset + count]
    return _image(
        pdf,
        scan,
        data,
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=1,
        Filter=_NAME.CCITTFaxDecode,
        DecodeParms=pikepdf.Dictionary(
            K=-1, Columns=width, Rows=height, BlackIs1=black_is_1
        ),
    )


def with_soft_mask(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """8-bit grey with an opaque SMask (PNGs with an alpha channel)."""
    image = grey(pdf, scan)
    mask = _image(
        pdf,
        scan,
        zlib.compress(np.full(scan.pixels.shape, 255, np.uint8).tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )
    image.SMask = mask
    return image


def indexed(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """8-bit palette over RGB (GIFs, palette PNGs)."""
    palette = bytes(value for level in range(256) for value in (level, level, level))
    return _image(
        pdf,
        scan,
        zlib.compress(scan.pixels.tobytes()),
        ColorSpace=[_NAME.Indexed, _NAME.DeviceRGB, 255, pikepdf.String(palette)],
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )


def sixteen_bit(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """16 bits a sample, grey (archival scanners)."""
    samples = scan.pixels.astype(">u2") * 257
    return _image(
        pdf,
        scan,
        zlib.compress(samples.tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=16,
        Filter=_NAME.FlateDecode,
    )


def lab(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """CIE L*a*b* (colour-managed scanners): L from the grey, a and b neutral."""
    lightness = scan.pixels
    neutral = np.full(lightness.shape, 128, np.uint8)
    samples = np.dstack([lightness, neutral, neutral])
    return _image(
        pdf,
        scan,
        zlib.compress(samples.tobytes()),
        ColorSpace=[
            _NAME.Lab,
            pikepdf.Dictionary(
                WhitePoint=[0.9505, 1.0, 1.089], Range=[-128, 127, -128, 127]
            ),
        ],
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )


def cmyk(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """Uncompressed-colour CMYK, Flate: only the black plate inked."""
    ink = 255 - scan.pixels
    zero = np.zeros(ink.shape, np.uint8)
    samples = np.dstack([zero, zero, zero, ink])
    return _image(
        pdf,
        scan,
        zlib.compress(samples.tobytes()),
        ColorSpace=_NAME.DeviceCMYK,
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )


KINDS: dict[str, Builder] = {
    "grey": grey,
    "jpeg": jpeg,
    "jpeg-cmyk": jpeg_cmyk,
    "1-bit": bilevel,
    "ccitt-g4": ccitt,
    "soft-mask": with_soft_mask,
    "indexed": indexed,
    "16-bit": sixteen_bit,
    "lab": lab,
    "cmyk": cmyk,
}


def text_in_soft_mask(pdf: pikepdf.Pdf, scan: Scan) -> pikepdf.Stream:
    """A black image whose SMask carries the text (a PNG of black ink on a
    transparent background): the words are only in the mask."""
    image = _image(
        pdf,
        scan,
        zlib.compress(np.zeros(scan.pixels.shape, np.uint8).tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )
    image.SMask = _image(
        pdf,
        scan,
        zlib.compress((255 - scan.pixels).tobytes()),
        ColorSpace=_NAME.DeviceGray,
        BitsPerComponent=8,
        Filter=_NAME.FlateDecode,
    )
    return image


KINDS["text-in-soft-mask"] = text_in_soft_mask


def inline_page(scan: Scan) -> bytes:
    """The scan as an inline image (BI ... ID ... EI) in the page's content, as
    some fax and print drivers write it."""
    height, width = scan.pixels.shape
    page_width, page_height = scan.size
    head = (
        f"q {page_width:.4f} 0 0 {page_height:.4f} 0 0 cm "
        f"BI /W {width} /H {height} /CS /G /BPC 8 /F [/AHx /Fl] ID\n"
    ).encode()
    # Hexadecimal, so that no byte of the data reads as the EI that ends it.
    data = zlib.compress(scan.pixels.tobytes()).hex().encode()
    content = head + data + b">\nEI Q"
    return _single_page(scan, content, pikepdf.Dictionary())


def pattern_page(scan: Scan) -> bytes:
    """The scan painted as the fill of a tiling pattern covering the page."""
    pdf = pikepdf.new()
    width, height = scan.size
    pattern = pikepdf.Stream(
        pdf, f"q {width:.4f} 0 0 {height:.4f} 0 0 cm /Im0 Do Q".encode()
    )
    pattern.PatternType, pattern.PaintType, pattern.TilingType = 1, 1, 1
    pattern.BBox = [0, 0, width, height]
    pattern.XStep, pattern.YStep = width, height
    pattern.Resources = pikepdf.Dictionary(
        XObject=pikepdf.Dictionary(Im0=grey(pdf, scan))
    )
    content = f"/Pattern cs /P0 scn 0 0 {width:.4f} {height:.4f} re f".encode()
    resources = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P0=pattern))
    return _single_page(scan, content, resources, pdf)


def _single_page(
    scan: Scan,
    content: bytes,
    resources: pikepdf.Dictionary,
    pdf: pikepdf.Pdf | None = None,
) -> bytes:
    pdf = pdf or pikepdf.new()
    width, height = scan.size
    page = pikepdf.Dictionary(
        Type=_NAME.Page,
        MediaBox=[0, 0, width, height],
        Resources=resources,
        Contents=pikepdf.Stream(pdf, content),
    )
    pdf.pages.append(pikepdf.Page(page))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()
