"""Images become pages sized by their own resolution, which each page reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from engines.convert import LimitExceeded, Limits, Rendition, detect, to_pdf
from engines.errors import UnsupportedDocument


def convert(path: Path, limits: Limits | None = None) -> Rendition:
    return to_pdf(str(path), detect(str(path)), str(path) + ".pdf", limits or Limits())


def test_a_300_dpi_tiff_page_reports_300_dpi_and_its_physical_size(
    tmp_path: Path,
) -> None:
    path = tmp_path / "scan.tif"
    Image.new("L", (2480, 3508), 255).save(path, dpi=(300, 300), compression="tiff_lzw")

    rendition = convert(path)

    (page,) = rendition.pages
    assert page.dpi == 300
    assert (round(page.width), round(page.height)) == (595, 842)  # A4


def test_every_frame_of_a_tiff_is_a_page_with_its_own_resolution(
    tmp_path: Path,
) -> None:
    path = tmp_path / "multi.tif"
    first = Image.new("RGB", (600, 300), "red")
    second = Image.new("RGB", (200, 400), "blue")
    second.info["dpi"] = (100, 100)
    first.save(path, save_all=True, append_images=[second], dpi=(200, 200))

    rendition = convert(path)

    assert [(p.dpi, round(p.width), round(p.height)) for p in rendition.pages] == [
        (200, 216, 108),
        (200, 72, 144),
    ]


def test_every_frame_of_an_animated_gif_is_a_page(tmp_path: Path) -> None:
    path = tmp_path / "anim.gif"
    frames = [Image.new("RGB", (120, 60), color) for color in ("red", "green", "blue")]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)

    rendition = convert(path)

    assert [(p.dpi, p.width, p.height) for p in rendition.pages] == [(72, 120, 60)] * 3


@pytest.mark.parametrize(
    ("fmt", "dpi", "size"),
    [
        ("PNG", (150, 150), (144, 72)),
        ("JPEG", (96, 96), (225, 112.5)),
        ("BMP", (72, 72), (300, 150)),
        ("WEBP", None, (300, 150)),
    ],
)
def test_formats_join_with_their_resolution(
    tmp_path: Path, fmt: str, dpi: tuple[int, int] | None, size: tuple[float, float]
) -> None:
    path = tmp_path / f"image.{fmt.lower()}"
    image = Image.new("RGB", (300, 150), "orange")
    image.save(path, fmt, **({"dpi": dpi} if dpi else {}))

    (page,) = convert(path).pages

    assert (round(page.width, 1), round(page.height, 1)) == pytest.approx(size, abs=0.2)
    assert page.dpi == (dpi[0] if dpi else 72)


def test_a_frame_over_the_pixel_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    Image.new("1", (5000, 5000)).save(path)

    with pytest.raises(LimitExceeded, match="pixels"):
        convert(path, Limits(max_image_pixels=1_000_000))


def test_a_truncated_image_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.png"
    Image.new("RGB", (400, 400), "red").save(path)
    path.write_bytes(path.read_bytes()[:200])

    with pytest.raises(UnsupportedDocument, match="PNG image cannot be read"):
        convert(path)
