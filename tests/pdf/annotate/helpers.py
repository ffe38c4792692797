"""Placing annotations and reading the output independently (engines/pdf/annotate).

Burnt output is checked on pixels rendered at 72 dpi, where one pixel is one point
of the displayed page, so displayed-space positions can be looked up directly; live
output is read back with pikepdf, independently of PyMuPDF.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pymupdf

from engines.pdf import geometry
from engines.pdf.annotate import apply_annotations
from engines.pdf.types import Annotation, Box, Placement, Rgb

ROTATIONS = (0, 90, 180, 270)
BLUE, RED, GREEN, YELLOW = (
    Rgb(0, 0, 255),
    Rgb(255, 0, 0),
    Rgb(0, 128, 0),
    Rgb(255, 255, 0),
)
WHITE = (255, 255, 255)
LINK_BOX = pymupdf.Rect(300, 250, 390, 290)  # unrotated page space, out of the way


def annotation(kind: str, page: int, **fields: Any) -> Placement:
    return Placement(
        page, Annotation(kind=kind, document_key="doc", page=page, **fields)
    )


def run(source: str, tmp_path: Path, placements: list[Placement], mode: str) -> str:
    dest = str(tmp_path / f"{mode}.pdf")
    apply_annotations(source, dest, placements, mode=mode)  # type: ignore[arg-type]
    return dest


def pixmap(path: str, page: int) -> pymupdf.Pixmap:
    with pymupdf.open(path) as document:
        return document[page].get_pixmap(dpi=72)


def near(pixel: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected, strict=True))


def count(pix: pymupdf.Pixmap, box: Box, wanted: tuple[int, int, int]) -> int:
    return sum(
        near(pix.pixel(x, y), wanted, 40)
        for x in range(int(box.x), int(box.x + box.w))
        for y in range(int(box.y), int(box.y + box.h))
    )


def annotation_subtypes(path: str) -> list[list[str]]:
    with pikepdf.open(path) as pdf:
        return [
            [str(a.Subtype) for a in page.obj.get("/Annots", [])] for page in pdf.pages
        ]


def pdf_rect(path: str, page: int, box: Box) -> pymupdf.Rect:
    with pymupdf.open(path) as document:
        return geometry.display_to_pdf_rect(document[page], box)


Reader = Callable[[str, int], dict[str, pikepdf.Dictionary]]


def numbers(array: Any) -> list[float]:
    return [float(value) for value in array]


def corners(rect: pymupdf.Rect) -> list[float]:
    return [rect.x0, rect.y0, rect.x1, rect.y1]
