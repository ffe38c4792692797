"""Reading outputs of the order operations with tools independent of the engine:
poppler's pdftotext (words and their boxes) and pdftoppm (pixels), qpdf."""

from __future__ import annotations

import html
import io
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(
    r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">'
    r"(.*?)</word>"
)


@dataclass(frozen=True)
class Word:
    """A word and its box on the displayed page, points, top-left origin."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


@dataclass(frozen=True)
class PageWords:
    width: float
    height: float
    words: list[Word]

    def find(self, text: str) -> list[Word]:
        return [w for w in self.words if w.text == text]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def words(path: Path | str, password: str | None = None) -> list[PageWords]:
    """Each page's words with their boxes on the displayed page, by
    `pdftotext -bbox` (which gives the unrotated size; pdfinfo the rotation)."""
    command = ["pdftotext", "-bbox", "-cropbox"]
    if password is not None:
        command += ["-upw", password]
    out = subprocess.run(
        [*command, str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    turned = rotations(path, password)
    pages = []
    for n, (width, height, body) in enumerate(_PAGE.findall(out)):
        w, h = float(width), float(height)
        if turned[n] in (90, 270):
            w, h = h, w
        found = [
            Word(html.unescape(t), float(a), float(b), float(c), float(d))
            for a, b, c, d, t in _WORD.findall(body)
        ]
        pages.append(PageWords(w, h, found))
    return pages


def rotations(path: Path | str, password: str | None = None) -> list[int]:
    """Each page's rotation, by pdfinfo."""
    command = ["pdfinfo", "-f", "1", "-l", "100000"]
    if password is not None:
        command += ["-upw", password]
    out = subprocess.run(
        [*command, str(path)], check=True, capture_output=True, text=True
    ).stdout
    return [int(r) for r in re.findall(r"^Page +\d+ rot: +(\d+)", out, re.M)]


def render(path: Path | str, page: int, dpi: int = 36) -> Image.Image:
    """Page `page` (from 1) as RGB pixels, by pdftoppm."""
    out = subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-png",
            str(path),
        ],
        check=True,
        capture_output=True,
    ).stdout
    return Image.open(io.BytesIO(out)).convert("RGB")


def pixel_at(
    image: Image.Image, x_pt: float, y_pt: float, dpi: int = 36
) -> tuple[int, ...]:
    """The pixel at a point of the displayed page (points, top-left origin)."""
    scale = dpi / 72
    return tuple(image.getpixel((int(x_pt * scale), int(y_pt * scale))))  # type: ignore[arg-type]


def count_pixels(
    image: Image.Image, colour: tuple[int, int, int], tolerance: int = 60
) -> int:
    """How many pixels are within `tolerance` of `colour` on every channel."""
    low = [max(c - tolerance, 0) for c in colour]
    high = [min(c + tolerance, 255) for c in colour]
    mask = [
        band.point(lambda v, lo=lo, hi=hi: 255 if lo <= v <= hi else 0)
        for band, lo, hi in zip(image.split(), low, high, strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(mask[0], mask[1]), mask[2])
    return int(sum(both.histogram()[255:]))


def qpdf_check(
    path: Path | str, password: str | None = None
) -> subprocess.CompletedProcess[str]:
    command = ["qpdf", "--check"]
    if password is not None:
        command.append(f"--password={password}")
    return subprocess.run([*command, str(path)], capture_output=True, text=True)
