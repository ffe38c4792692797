"""Text PDFs for the comparison tests, and their words as poppler's pdftotext sees them."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pymupdf

from engines.pdf.types import Box, TextChange

LINE_HEIGHT = 16.0
TOP = 72.0


def make_pdf(
    path: Path, pages: Sequence[Sequence[str]], *, rotate: int = 0, fontsize: float = 11
) -> Path:
    """One line of text per string, from the top-left margin down (Helvetica)."""
    with pymupdf.open() as doc:
        for lines in pages:
            page = doc.new_page(width=595, height=842)
            for n, line in enumerate(lines):
                page.insert_text((72, TOP + n * LINE_HEIGHT), line, fontsize=fontsize)
            page.set_rotation(rotate)
        doc.save(path)
    return path


def poppler_words(path: Path) -> list[tuple[int, str, Box]]:
    """(0-based page, word, box in displayed space) as pdftotext -bbox sees them."""
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: list[tuple[int, str, Box]] = []
    for page, body in enumerate(re.findall(r"<page .*?</page>", html, re.S)):
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
            r"(.*?)</word>",
            body,
        ):
            box = Box(
                float(x0), float(y0), float(x1) - float(x0), float(y1) - float(y0)
            )
            found.append((page, word, box))
    return found


def poppler_box(path: Path, word: str) -> Box:
    (box,) = [b for _, w, b in poppler_words(path) if w == word]
    return box


def fragments(change: TextChange, kind: str) -> list[str]:
    return [f.text for f in change.fragments if f.type == kind]
