"""Text search, page text and page images over HTTP."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.conftest import doc_url


@pytest.fixture
def letter(uploaded: Callable[..., str]) -> str:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "The Café serves coffee near the river.", fontsize=12)
    page.insert_text(
        (72, 130), "Contact: see https://example.org for details.", fontsize=12
    )
    page.insert_link(
        {
            "kind": pymupdf.LINK_URI,
            "from": pymupdf.Rect(130, 118, 260, 134),
            "uri": "https://example.org",
        }
    )
    return uploaded(doc.tobytes())


def search(client: Any, doc_id: str, page: int = 0, **query: Any) -> Any:
    return client.get(doc_url(doc_id, f"/pages/{page}/text", **query))


def test_search_returns_every_positiontext_field(client: Any, letter: str) -> None:
    response = search(client, letter, searchText="cafe")
    assert response.status_code == 200
    results = response.json()["searchResults"]
    assert len(results) == 1
    result = results[0]
    text = result["positionText"]
    assert text["text"] == "Café"
    assert result["textRangeList"] == [{"firstCharacter": 0, "lastCharacter": 3}]
    assert set(text) == {
        "pageNumber",
        "position",
        "text",
        "individualWidths",
        "fontSize",
        "font",
        "clickableDestination",
        "paragraphId",
        "rightToLeftText",
        "startTime",
        "rotation",
    }
    assert (
        text["pageNumber"] == 0 and text["startTime"] == -1.0 and text["rotation"] == 0
    )
    assert text["rightToLeftText"] is False and text["clickableDestination"] is None
    assert text["fontSize"] == pytest.approx(12, abs=0.1)
    assert len(text["individualWidths"]) == 4
    assert sum(text["individualWidths"]) == pytest.approx(
        text["position"]["w"], abs=0.01
    )
    box = text["position"]
    assert 72 < box["x"] < 200 and 85 < box["y"] < 100 and 8 < box["h"] < 20


def test_accent_sensitive_search_misses_the_unaccented_spelling(
    client: Any, letter: str
) -> None:
    assert search(client, letter, searchText="cafe", accentSensitive="true").json() == {
        "searchResults": []
    }
    assert len(search(client, letter, searchText="CAFÉ").json()["searchResults"]) == 1
    assert (
        search(client, letter, searchText="CAFÉ", caseSensitive="True").json()[
            "searchResults"
        ]
        == []
    )


def test_regex_search_and_link_under_the_match(client: Any, letter: str) -> None:
    results = search(client, letter, searchText=r"https?://\S+org", regex="1").json()[
        "searchResults"
    ]
    assert [r["positionText"]["text"] for r in results] == ["https://example.org"]
    link = results[0]["positionText"]["clickableDestination"]
    assert link["action"] == "URI" and link["destination"] == "https://example.org"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({}, "searchText"),
        ({"searchText": "x", "regex": "perhaps"}, "regex"),
        ({"searchText": "(unclosed", "regex": "true"}, "searchText"),
    ],
)
def test_bad_search_queries_are_400(
    client: Any, letter: str, query: dict[str, Any], field: str
) -> None:
    response = search(client, letter, **query)
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_catastrophic_regex_is_a_400_not_a_hung_worker(
    client: Any, uploaded: Callable[..., str]
) -> None:
    doc = pymupdf.open()
    doc.new_page(width=4000).insert_text((20, 50), "a" * 1500 + "b", fontsize=4)
    doc_id = uploaded(doc.tobytes())
    response = search(client, doc_id, searchText="(a+)+$", regex="true")
    assert response.status_code == 400
    assert search(client, doc_id, searchText="b").status_code == 200


def test_page_outside_the_document_is_400(client: Any, letter: str) -> None:
    assert search(client, letter, page=1, searchText="x").status_code == 400
    assert search(client, letter, page=-1, searchText="x").status_code == 400


def test_page_text_lists_every_line(client: Any, letter: str) -> None:
    contents = client.get(doc_url(letter, "/pages/0/text/position")).json()
    assert contents["pageNumber"] == 0
    assert contents["imageHyperlinkPositionList"] == []
    lines = contents["positionTextList"]
    assert [line["text"] for line in lines] == [
        "The Café serves coffee near the river.",
        "Contact: see https://example.org for details.",
    ]
    assert lines[0]["position"]["y"] < lines[1]["position"]["y"]


def test_page_image_is_a_png_of_the_asked_width(client: Any, letter: str) -> None:
    response = client.get(doc_url(letter, "/pages/0/image", width=300))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    pix = pymupdf.Pixmap(io.BytesIO(b"".join(response.streaming_content)).getvalue())
    assert pix.width == 300 and abs(pix.height - 300 * 792 / 612) <= 1
    assert client.get(doc_url(letter, "/pages/0/image", width=5000)).status_code == 400


@pytest.mark.corpus
def test_search_on_a_rotated_corpus_page_matches_poppler(
    client: Any, corpus: Path, facts: dict[str, Any], uploaded: Callable[..., str]
) -> None:
    doc_id = uploaded((corpus / "rotation.pdf").read_bytes())
    word = facts["rotation.pdf"]["distinctive_words"][1]["words"][0]
    x0, y0, x1, y1 = word["bbox"]
    (result,) = search(client, doc_id, page=1, searchText=word["word"]).json()[
        "searchResults"
    ]
    box = result["positionText"]["position"]
    assert box["x"] == pytest.approx(x0, abs=1.5) and box["y"] == pytest.approx(
        y0, abs=2.5
    )
    assert box["x"] + box["w"] == pytest.approx(x1, abs=1.5)
