"""Scans made from text pages, with the exact place of every word on them.

A text page is drawn at a resolution, optionally turned a little (skew), blurred
and noised like a scanner or a fax would; the scan is wrapped as a PDF page of
the same physical size. `Scan.to_scan` maps a box of the text page (displayed
points) onto the scan page, so that words known on the original (FACTS.json,
pdftotext) can be looked for on the scan.
"""

from __future__ import annotations

import io
import random
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image, ImageFilter

from engines.pdf.types import Box


@dataclass(frozen=True)
class Scan:
    """A grey scan of a page: `pixels` (rows of uint8) at `dpi`, and `matrix`
    taking the original page's displayed points to the scan page's points."""

    pixels: np.ndarray
    dpi: float
    matrix: pymupdf.Matrix

    @property
    def size(self) -> tuple[float, float]:
        """The scan page's width and height in points."""
        height, width = self.pixels.shape
        return width * 72 / self.dpi, height * 72 / self.dpi

    def to_scan(self, box: Sequence[float]) -> Box:
        """An (x0, y0, x1, y1) box of the original, as the box enclosing it on
        the scan page."""
        rect = pymupdf.Rect(box) * self.matrix
        return Box(rect.x0, rect.y0, rect.width, rect.height)

    def png(self) -> bytes:
        image = Image.fromarray(self.pixels, "L")
        out = io.BytesIO()
        image.save(out, "PNG", dpi=(self.dpi, self.dpi))
        return out.getvalue()

    def pdf(self, path: Path, *, image: bytes | None = None) -> Path:
        """The scan as a one-page PDF (the image covers the page)."""
        doc = pymupdf.open()
        width, height = self.size
        page = doc.new_page(width=width, height=height)
        page.insert_image(page.rect, stream=image or self.png())
        doc.save(path, deflate=True)  # scanners compress their images
        return path


def scan_page(
    page: pymupdf.Page,
    dpi: float,
    *,
    skew: float = 0.0,
    blur: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
) -> Scan:
    """`page` as displayed, scanned at `dpi`, turned `skew` degrees, blurred
    with a Gaussian of `blur` pixels and given Gaussian noise of `noise` grey
    levels (standard deviation)."""
    zoom = dpi / 72
    turn = pymupdf.Matrix(zoom, zoom) * pymupdf.Matrix(skew)
    pixmap = page.get_pixmap(matrix=turn, colorspace=pymupdf.csGRAY, alpha=False)
    pixels = np.frombuffer(pixmap.samples, np.uint8).reshape(
        pixmap.height, pixmap.width
    )
    # MuPDF leaves the corners uncovered by a turned page black: paper is white.
    if skew:
        inside = pymupdf.Pixmap(pymupdf.csGRAY, pixmap.irect, False)
        inside.clear_with(0)
        mask_doc = pymupdf.open()
        mask = mask_doc.new_page(width=page.rect.width, height=page.rect.height)
        mask.draw_rect(mask.rect, color=None, fill=(1, 1, 1))
        cover = mask.get_pixmap(matrix=turn, colorspace=pymupdf.csGRAY, alpha=False)
        covered = np.frombuffer(cover.samples, np.uint8).reshape(pixels.shape)
        pixels = np.where(covered > 0, pixels, 255).astype(np.uint8)
    image = Image.fromarray(np.array(pixels), "L")
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    result = np.asarray(image, dtype=np.float64)
    if noise:
        result = result + np.random.default_rng(seed).normal(0, noise, result.shape)
    pixels = np.clip(result, 0, 255).astype(np.uint8)
    # Original points → drawing pixels → scan points (the pixmap starts at x, y).
    to_scan = turn * pymupdf.Matrix(1, 0, 0, 1, -pixmap.x, -pixmap.y)
    return Scan(pixels, dpi, to_scan * pymupdf.Matrix(72 / dpi, 72 / dpi))


def text_pdf(path: Path, paragraphs: Sequence[str], *, size: float = 11) -> Path:
    """An A4 page of Times text, the paragraphs one after another."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(
        pymupdf.Rect(60, 70, 535, 800),
        "\n\n".join(paragraphs),
        fontsize=size,
        fontname="tiro",
    )
    doc.save(path)
    return path


def pdftotext(path: Path | str, page: int | None = None) -> str:
    """poppler's text of the document, or of one 0-based page."""
    pages = [] if page is None else ["-f", str(page + 1), "-l", str(page + 1)]
    return subprocess.run(
        ["pdftotext", *pages, str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def overlap(found: Box, truth: Box) -> float:
    """Intersection over union of two boxes, 0 to 1."""
    x0, y0 = max(found.x, truth.x), max(found.y, truth.y)
    x1 = min(found.x + found.w, truth.x + truth.w)
    y1 = min(found.y + found.h, truth.y + truth.h)
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = found.w * found.h + truth.w * truth.h - inter
    return inter / union if union > 0 else 0.0


_DENSE_WORDS = (
    "income tax return nonresident alien schedule line enter amount treaty "
    "benefits withholding credit payment refund dependent deduction itemized "
    "standard section resident election statement exemption wages salaries "
    "interest dividends capital gains business partnership estate trust "
    "scholarship fellowship grant instructions complete attach form report "
    "effectively connected united states source gross adjusted total taxable"
).split()


def dense_pdf(path: Path, *, columns: int = 3, size: float = 8, seed: int = 0) -> Path:
    """A US-letter page of small Helvetica text in `columns` columns, the page
    full (like a page of tax instructions), words drawn from a fixed list."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    gutter, margin = 14, 36
    width = (612 - 2 * margin - gutter * (columns - 1)) / columns
    for column in range(columns):
        left = margin + column * (width + gutter)
        rect = pymupdf.Rect(left, margin, left + width, 792 - margin)
        writer = pymupdf.TextWriter(page.rect)
        sentences = []
        for _ in range(80):
            words = [rng.choice(_DENSE_WORDS) for _ in range(rng.randint(6, 14))]
            sentences.append(" ".join(words).capitalize() + ".")
        # What does not fit is left out: the column is full.
        writer.fill_textbox(
            rect, " ".join(sentences), fontsize=size, font=pymupdf.Font("helv")
        )
        writer.write_text(page)
    doc.save(path)
    return path


def dense_table_pdf(path: Path, *, rows: int = 60, seed: int = 0) -> Path:
    """A page like a statistical abstract's: a 7 pt note above a table of
    labelled rows with eight columns of 7 pt figures, rules between parts."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=660)
    font = pymupdf.Font("helv")
    writer = pymupdf.TextWriter(page.rect)
    note = " ".join(rng.choice(_DENSE_WORDS) for _ in range(90)).capitalize() + "."
    writer.fill_textbox(pymupdf.Rect(24, 30, 396, 80), note, fontsize=7, font=font)
    y = 96.0
    page.draw_line((24, y - 8), (396, y - 8), width=0.5)
    for row in range(rows):
        label = " ".join(rng.choice(_DENSE_WORDS) for _ in range(rng.randint(1, 3)))
        writer.append((24, y), label.capitalize(), font=font, fontsize=7)
        for column in range(8):
            figure = f"{rng.randint(1, 99999):,}"
            right = 178 + column * 27.5
            writer.append(
                (right - font.text_length(figure, 7), y), figure, font=font, fontsize=7
            )
        y += 8.6
        if row % 15 == 14:
            page.draw_line((24, y - 6), (396, y - 6), width=0.3)
            y += 3
    writer.write_text(page)
    doc.save(path)
    return path
