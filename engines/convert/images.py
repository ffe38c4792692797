"""Images -> PDF: one page per frame, each the size of its frame at the
image's own resolution, with that resolution reported per page.

A 300 dpi TIFF page of 2480 x 3508 pixels becomes an A4 page (595 x 842 pt)
whose `dpi` is 300; an image without a resolution (or one under 1 dpi) is
taken at 72 dpi. Every frame of a multi-page TIFF and of an animated GIF is
a page (as ImageMagick, the original server's image converter, does).

Pillow reads the frames and their resolutions; MuPDF embeds them. A
single-frame JPEG or PNG is embedded from its own bytes (a JPEG is not
re-encoded); other frames are written as PNG, losslessly.
"""

from __future__ import annotations

import io
import warnings

import pymupdf
from PIL import Image, ImageSequence, UnidentifiedImageError

from engines.convert.rendition import Deadline, check_page_count, describe
from engines.convert.types import (
    Detected,
    LimitExceeded,
    Limits,
    Rendition,
    UnsupportedDocument,
)
from engines.pdf.failures import MUPDF_FAILURES

DEFAULT_DPI = 72
_EMBED_AS_IS = frozenset({"JPEG", "PNG"})
# Modes MuPDF embeds from a PNG as they are; others are converted first.
_PNG_MODES = frozenset({"1", "L", "LA", "RGB", "RGBA", "P", "I;16"})
# What Pillow and MuPDF raise on a damaged image.
_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    ValueError,
    SyntaxError,
    *MUPDF_FAILURES,
)


def image_to_pdf(path: str, detected: Detected, dest: str, limits: Limits) -> Rendition:
    """Write at `dest` a PDF with one page per frame of the image at `path`."""
    deadline = Deadline(limits.timeout)
    dpis: list[int] = []
    doc = pymupdf.open()
    try:
        with _open(path, detected, limits) as image:
            single = getattr(image, "n_frames", 1) == 1
            for frame in ImageSequence.Iterator(image):
                check_page_count(len(dpis) + 1, limits.max_pages, "the image")
                deadline.check("converting the image")
                _check_pixels(frame, limits)
                dpi_x, dpi_y = resolution(frame)
                width, height = frame.size
                page = doc.new_page(
                    width=width * 72 / dpi_x, height=height * 72 / dpi_y
                )
                page.insert_image(page.rect, stream=_frame_bytes(path, image, single))
                dpis.append(round(dpi_x))
        doc.save(dest, garbage=3, deflate=True)
    except Image.DecompressionBombError as exc:
        raise LimitExceeded(
            f"the {detected.description} is larger than {limits.max_image_pixels:,} "
            "pixels"
        ) from exc
    except _READ_ERRORS as exc:
        raise UnsupportedDocument(
            f"the {detected.description} cannot be read ({_reason(exc, path)})"
        ) from exc
    finally:
        doc.close()
    return describe(
        dest,
        engine="image",
        started=deadline.started,
        max_pages=limits.max_pages,
        dpis=dpis,
    )


def embeds_as_is(path: str, detected: Detected, limits: Limits) -> bool:
    """Whether the image becomes a PDF by embedding its own bytes (a single
    JPEG or PNG frame, not CMYK): milliseconds, where a TIFF's or a GIF's
    frames are decoded and written again (seconds for a few scanned pages).
    Reads the header only; UnsupportedDocument when Pillow cannot open it,
    LimitExceeded when its first frame has too many pixels."""
    try:
        with _open(path, detected, limits) as image:
            _check_pixels(image, limits)
            return (
                image.format in _EMBED_AS_IS
                and getattr(image, "n_frames", 1) == 1
                and image.mode != "CMYK"
            )
    except _READ_ERRORS as exc:
        raise UnsupportedDocument(
            f"the {detected.description} cannot be read ({_reason(exc, path)})"
        ) from exc


def _open(path: str, detected: Detected, limits: Limits) -> Image.Image:
    # Pillow's own bomb check warns, then fails at twice its limit; ours is
    # explicit (_check_pixels), so its warning is silenced here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            return Image.open(path)
        except UnidentifiedImageError as exc:
            raise UnsupportedDocument(
                f"the {detected.description} cannot be read (its format is not "
                "supported or it is damaged)"
            ) from exc


def resolution(frame: Image.Image) -> tuple[float, float]:
    """Horizontal and vertical dots per inch of a frame; 72 when unset or
    absurd (under 1 dpi), as the original server's converter."""
    dpi = frame.info.get("dpi")
    try:
        dpi_x, dpi_y = (float(dpi[0]), float(dpi[1])) if dpi else (0.0, 0.0)
    except (TypeError, ValueError, IndexError):
        dpi_x = dpi_y = 0.0
    if dpi_x < 1 or dpi_y < 1:
        return float(DEFAULT_DPI), float(DEFAULT_DPI)
    return _whole(dpi_x), _whole(dpi_y)


def _whole(dpi: float) -> float:
    """PNG stores pixels per metre, so 72 dpi reads back as 72.009 (2835 px/m),
    and a 120-pixel image would be 119.99 points wide: a resolution within a tenth
    of a whole number is that number."""
    nearest = round(dpi)
    return float(nearest) if abs(dpi - nearest) < 0.1 else dpi


def _check_pixels(frame: Image.Image, limits: Limits) -> None:
    width, height = frame.size
    if width * height > limits.max_image_pixels:
        raise LimitExceeded(
            f"a frame of the image is {width} x {height} pixels; the limit is "
            f"{limits.max_image_pixels:,} pixels"
        )


def _frame_bytes(path: str, image: Image.Image, single: bool) -> bytes:
    if single and image.format in _EMBED_AS_IS and image.mode != "CMYK":
        with open(path, "rb") as fh:
            return fh.read()
    frame = image if image.mode in _PNG_MODES else image.convert("RGBA")
    if frame.mode == "P" and "transparency" in frame.info:
        frame = frame.convert("RGBA")
    out = io.BytesIO()
    frame.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _reason(exc: BaseException, path: str) -> str:
    text = " ".join(str(exc).replace(path, "the file").split())
    return text[:160] or type(exc).__name__
