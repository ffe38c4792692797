"""Page images with the original's pageImageDescription: width, rotation, filters,
JPEG for scans, cached per description with an ETag."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.conftest import doc_url


@pytest.fixture
def marked(uploaded: Callable[..., str]) -> str:
    """One A4 page, white, with a black square in its top-left corner."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(0, 0, 100, 100), color=(0, 0, 0), fill=(0, 0, 0))
    return uploaded(doc.tobytes())


def image(client: Any, doc_id: str, description: str | None = None, **more: Any) -> Any:
    query = {"pageImageDescription": description} if description else {}
    headers = {k: v for k, v in more.items() if k.startswith("HTTP_")}
    query.update({k: v for k, v in more.items() if k not in headers})
    return client.get(doc_url(doc_id, "/pages/0/image", **query), **headers)


def pixmap(response: Any) -> pymupdf.Pixmap:
    return pymupdf.Pixmap(io.BytesIO(b"".join(response.streaming_content)).getvalue())


def test_width_and_rotation_of_the_description(client: Any, marked: str) -> None:
    plain = image(client, marked, "IM_300_0")
    assert plain.status_code == 200 and plain["Content-Type"] == "image/png"
    pix = pixmap(plain)
    assert pix.width == 300 and abs(pix.height - 300 * 842 / 595) < 1
    assert pix.pixel(5, 5) == (0, 0, 0) and pix.pixel(290, 5) == (255, 255, 255)
    turned = pixmap(image(client, marked, "IM_200_90"))
    # Turned a quarter clockwise: landscape, 200 wide, the square now top right.
    assert turned.width == 200 and abs(turned.height - 200 * 595 / 842) < 1
    assert turned.pixel(195, 5) == (0, 0, 0) and turned.pixel(5, 5) == (255, 255, 255)
    upside = pixmap(image(client, marked, "IM_100_180"))
    assert upside.pixel(upside.width - 3, upside.height - 3) == (0, 0, 0)


def test_the_image_is_drawn_at_the_width_not_resized(
    client: Any, marked: str, uploaded: Callable[..., str]
) -> None:
    from documents.models import Document

    ours = pixmap(image(client, marked, "IM_123_0"))
    page = pymupdf.open(Document.objects.get(pk=marked).file.path)[0]
    zoom = 123 / page.rect.width
    direct = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
    assert ours.samples == direct.samples


def test_filters_invert_brighten_and_flatten(client: Any, marked: str) -> None:
    negative = pixmap(image(client, marked, "IM_100_0_FILTERS~I~100"))
    assert negative.pixel(3, 3) == (255, 255, 255)
    assert negative.pixel(90, 90) == (0, 0, 0)
    darker = pixmap(image(client, marked, "IM_100_0_FILTERS~B~-50"))
    assert darker.pixel(90, 90) == (128, 128, 128)  # 255 - 50 * 2.55, rounded
    flat = pixmap(image(client, marked, "IM_100_0_FILTERS~C~-100"))
    assert flat.pixel(3, 3) == flat.pixel(90, 90) == (128, 128, 128)
    mixed = pixmap(image(client, marked, "IM_100_0_FILTERS~C~35~B~-100~I~50"))
    assert mixed.width == 100


def test_the_width_parameter_still_works(client: Any, marked: str) -> None:
    response = image(client, marked, width=64)
    assert response["Content-Type"] == "image/png" and pixmap(response).width == 64


@pytest.mark.parametrize(
    "description",
    [
        "IM_0_0",
        "IM_5000_0",
        "IM_100_45",
        "IM_100",
        "IM_100_0_FILTERS~X~1",
        "IM_100_0_FILTERS~C~101",
        "IM_100_0_FILTERS~I~-1",
        "IM_100_0_FILTERS~C",
        "image",
    ],
)
def test_bad_descriptions_are_400(client: Any, marked: str, description: str) -> None:
    response = image(client, marked, description)
    assert response.status_code == 400, description
    assert "pageImageDescription" in str(response.json())


def test_a_jpeg_scan_answers_jpeg_at_the_asked_width(
    client: Any, uploaded: Callable[..., str]
) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 300), False)
    pix.clear_with(200)
    doc_id = uploaded(pix.tobytes("jpeg"))
    response = image(client, doc_id, "IM_200_0")
    assert response["Content-Type"] == "image/jpeg"
    data = b"".join(response.streaming_content)
    assert data[:3] == b"\xff\xd8\xff"
    assert pymupdf.Pixmap(data).width == 200


def test_images_are_cached_per_description_with_an_etag(
    client: Any, marked: str, settings: Any
) -> None:
    first = image(client, marked, "IM_100_0")
    etag = first["ETag"]
    assert etag.startswith('"') and "IM_100_0" in etag
    assert "immutable" in first["Cache-Control"]
    again = image(client, marked, "IM_100_0")
    assert again["ETag"] == etag
    assert b"".join(again.streaming_content) == b"".join(first.streaming_content)
    image(client, marked, "IM_100_90")
    cached = sorted(
        p.name for p in Path(settings.DATA_DIR, "cache", "pages").rglob("*.png")
    )
    assert cached == ["0-IM_100_0.png", "0-IM_100_90.png"]
    unchanged = image(client, marked, "IM_100_0", HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag
    assert image(client, marked, "IM_100_90")["ETag"] != etag
