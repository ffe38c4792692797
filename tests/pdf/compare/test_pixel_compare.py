"""Pixel comparison highlights where the rendered pages differ, in the colours and
with the tolerance asked for; its output is checked as poppler renders it.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest

from engines.pdf.compare import parse_color, pixel_compare
from engines.pdf.types import CompareStyle, Rgb


def make_shapes_pdf(
    path: Path, pages: Sequence[Sequence[tuple[pymupdf.Rect, float]]]
) -> Path:
    """Pages with grey filled rectangles, (rect, grey level 0 = black .. 1 = white)."""
    with pymupdf.open() as doc:
        for shapes in pages:
            page = doc.new_page(width=200, height=200)
            for rect, grey in shapes:
                page.draw_rect(rect, color=None, fill=(grey, grey, grey))
        doc.save(path)
    return path


def rendered(path: Path, page: int = 0, dpi: int = 72) -> pymupdf.Pixmap:
    """A page of `path` rendered by poppler (independent of the engine)."""
    prefix = path.with_suffix("")
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page + 1),
            "-l",
            str(page + 1),
            "-singlefile",
            "-png",
            str(path),
            str(prefix),
        ],
        check=True,
    )
    return pymupdf.Pixmap(str(prefix) + ".png")


def pixel(pix: pymupdf.Pixmap, x: float, y: float) -> tuple[int, ...]:
    """The colour at (x, y), each channel rounded to a multiple of 5: renderers'
    colour conversions differ by a unit or two."""
    return tuple(5 * round(c / 5) for c in pix.pixel(int(x), int(y))[:3])


def page_count(path: Path) -> int:
    info = subprocess.run(
        ["pdfinfo", str(path)], check=True, capture_output=True, text=True
    ).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]


SQUARE_A = pymupdf.Rect(20, 20, 80, 80)
SQUARE_B = pymupdf.Rect(120, 120, 180, 180)


def test_pixel_compare_highlights_only_where_the_pages_differ(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0), (SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"

    written = pixel_compare(
        str(left), str(right), str(dest), CompareStyle(fuzz=0), dpi=72
    )

    assert written == 1 == page_count(dest)
    image = rendered(dest)
    assert pixel(image, 150, 150) == (255, 0, 0)  # only on the right: highlighted
    assert pixel(image, 50, 50) == (0, 0, 0)  # common: left as is
    assert pixel(image, 100, 30) == (255, 255, 255)  # background


def test_pixel_compare_uses_the_highlight_colour(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"
    style = CompareStyle(highlight=parse_color("#00ff00"))

    pixel_compare(str(left), str(right), str(dest), style, dpi=72)

    assert pixel(rendered(dest), 150, 150) == (0, 255, 0)


def test_fuzz_tolerates_a_slightly_different_grey(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0.50)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0.51)]])  # ~1 % apart
    exact, tolerant = tmp_path / "exact.pdf", tmp_path / "tolerant.pdf"

    pixel_compare(str(left), str(right), str(exact), CompareStyle(fuzz=0), dpi=72)
    pixel_compare(str(left), str(right), str(tolerant), CompareStyle(fuzz=3), dpi=72)

    assert pixel(rendered(exact), 50, 50) == (255, 0, 0)
    grey = pixel(rendered(tolerant), 50, 50)
    assert grey != (255, 0, 0)
    assert all(abs(c - 130) <= 5 for c in grey)  # the right page's 0.51 grey


def test_lowlight_tints_common_content(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0), (SQUARE_B, 0)]])
    dest = tmp_path / "out.pdf"
    style = CompareStyle(fuzz=3, lowlight=Rgb(0, 0, 255))

    pixel_compare(str(left), str(right), str(dest), style, dpi=72)

    image = rendered(dest)
    assert pixel(image, 50, 50) == (0, 0, 255)  # black common content → lowlight
    assert pixel(image, 150, 150) == (255, 0, 0)
    assert pixel(image, 100, 30) == (255, 255, 255)  # white stays white


def test_page_on_one_side_only_is_entirely_highlighted(tmp_path: Path) -> None:
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)], [(SQUARE_A, 0)]])
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_A, 0)]])
    dest = tmp_path / "out.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=72)

    assert written == 2 == page_count(dest)
    assert pixel(rendered(dest, 0), 50, 50) == (0, 0, 0)
    assert pixel(rendered(dest, 1), 50, 50) == (255, 0, 0)
    assert pixel(rendered(dest, 1), 150, 150) == (255, 255, 255)


def test_pixel_compare_page_is_as_large_as_the_larger_page(tmp_path: Path) -> None:
    left = tmp_path / "l.pdf"
    with pymupdf.open() as doc:
        doc.new_page(width=300, height=100)
        doc.save(left)
    right = make_shapes_pdf(tmp_path / "r.pdf", [[]])
    dest = tmp_path / "out.pdf"

    pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=72)

    with pymupdf.open(dest) as out:
        assert (out[0].rect.width, out[0].rect.height) == (300, 200)


def test_long_pixel_comparison_is_one_valid_pdf(tmp_path: Path) -> None:
    # More pages than one in-memory chunk, so the chunks are joined.
    left = make_shapes_pdf(tmp_path / "l.pdf", [[(SQUARE_A, 0)]] * 40)
    right = make_shapes_pdf(tmp_path / "r.pdf", [[(SQUARE_B, 0)]] * 41)
    dest = tmp_path / "out.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=24)

    assert written == 41 == page_count(dest)
    subprocess.run(["qpdf", "--check", str(dest)], check=True, capture_output=True)
    assert pixel(rendered(dest, 40, dpi=72), 150, 150) == (255, 0, 0)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".compare-")]


@pytest.mark.corpus
def test_annotated_tracemonkey_pixels_differ_only_on_page_one(
    corpus: Path, tmp_path: Path
) -> None:
    dest = tmp_path / "out.pdf"
    left, right = corpus / "tracemonkey.pdf", corpus / "tracemonkey-annotated-hello.pdf"

    written = pixel_compare(str(left), str(right), str(dest), CompareStyle(), dpi=36)

    assert written == 14 == page_count(dest)
    with pymupdf.open(dest) as out:
        red = [_red_pixels(page.get_pixmap(dpi=36)) for page in out]
    assert red[0] > 0
    assert red[1:] == [0] * 13


def _red_pixels(pix: pymupdf.Pixmap) -> int:
    samples, n = pix.samples, pix.n
    return sum(
        1
        for k in range(0, len(samples), n)
        if samples[k] > 200 and samples[k + 1] < 60 and samples[k + 2] < 60
    )
