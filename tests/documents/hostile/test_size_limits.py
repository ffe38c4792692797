"""Size: decompression bombs, absurd page boxes and too many pages are refused at
upload in time and memory; the largest and smallest sizes allowed stay usable, and
pages of extreme size get a clear answer from every endpoint that reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.conftest import doc_url
from tests.documents.hostile.build import (
    _base,
    bomb_in_attached_file,
    bomb_in_content,
    bomb_in_image,
    bomb_in_many_streams,
    page_count_claim,
    with_media_box,
)
from tests.documents.hostile.helpers import (
    assert_problem,
    assert_usable,
    deadline,
    peak_rss_mib,
)
from tests.orders.helpers import element, order_body


@pytest.mark.parametrize(
    "build",
    [bomb_in_content, bomb_in_many_streams, bomb_in_image, bomb_in_attached_file],
)
def test_decompression_bomb_is_refused_at_upload_in_time_and_memory(
    upload: Callable[..., Any], client: Any, build: Callable[[], bytes]
) -> None:
    data = build()
    assert len(data) < 20_000
    before = peak_rss_mib()
    with deadline(15):
        assert_problem(upload(data), 415, "decompression bomb")
        kept = upload(data, failOnUnsupported="false")
    assert peak_rss_mib() - before < 300
    # Kept as is on request: no layout, and no order can reach the engine with it.
    assert kept.status_code == 200, kept.content
    doc = kept.json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] is None
    answer = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert_problem(answer, 400, "not a readable PDF")


@pytest.mark.parametrize(
    "box",
    [
        [0, 0, 1e9, 1e9],
        [0, 0, 14_401, 600],
        [0, 0, 600, 2],
        [0, 0, 600, 0.5],  # MuPDF would show it as 1 x 1 pt
        [0, 0, 1e-3, 1e-3],
    ],
    ids=["1e9", "over-14400", "two-points", "half-a-point", "a-thousandth"],
)
def test_absurd_page_size_is_refused_at_upload(
    upload: Callable[..., Any], box: list[float]
) -> None:
    with deadline(10):
        assert_problem(upload(with_media_box(box)), 415, "page 2", "3 and 14,400 pt")


@pytest.mark.parametrize(
    ("box", "size"),
    [
        ([0, 0, 14_400, 14_400], (14_400, 14_400)),
        ([0, 0, 3, 3], (3, 3)),
        ([0, 0, -612, -792], (612, 792)),  # readers normalise the rectangle
        ([0, 0, 0, 792], (612, 792)),  # degenerate: readers fall back to Letter
    ],
    ids=["largest", "smallest", "negative", "zero-width"],
)
def test_unusual_but_readable_page_box_is_usable(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    client: Any,
    box: list[float],
    size: tuple[int, int],
) -> None:
    data = with_media_box(box)
    assert_usable(upload, run_order, data, pages=2)
    doc = upload(data).json()["id"]
    layout = client.get(doc_url(doc, "/layout")).json()["pageDimensionsList"]
    assert (layout[1]["width"], layout[1]["height"]) == size


def test_a_page_count_claim_of_two_billion_is_ignored(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    client: Any,
) -> None:
    data = page_count_claim(2_000_000_000)
    assert_usable(upload, run_order, data, pages=2)
    doc = upload(data).json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] == 2


def test_more_pages_than_the_limit_is_refused(
    upload: Callable[..., Any], settings: Any
) -> None:
    settings.SERVICE = replace(settings.SERVICE, max_pages=50)
    with deadline(10):
        response = upload(_base(51))
    assert response.status_code in (400, 415), response.content
    assert "limit is 50" in response.json()["detail"]


def test_the_image_of_a_very_long_page_is_not_a_server_error(
    uploaded: Callable[..., str], client: Any
) -> None:
    doc = uploaded(with_media_box([0, 0, 3, 14_400]))
    client.raise_request_exception = False  # see the answer a client would get
    with deadline(20):
        response = client.get(doc_url(doc, "/pages/1/image", width=4000))
    assert response.status_code < 500, response.content


def test_comparing_the_largest_pages_ends_with_a_clear_outcome(
    uploaded: Callable[..., str], client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    doc = uploaded(with_media_box([0, 0, 14_400, 14_400]))
    with deadline(60), django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/comparisons",
            data={"leftDocumentId": doc, "rightDocumentId": doc},
            content_type="application/json",
        )
    assert answer.status_code == 200, answer.content
    order_id = answer.json()["comparisonOrderId"]["id"]
    order = client.get(f"/comparisons/{order_id}").json()
    assert order["currentState"] in ("PROCESSED", "FAILED"), order
    assert "internal error" not in (order["errorMessage"] or "")
