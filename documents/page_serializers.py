"""Wire shapes of text search and page text (PositionText of the interface)."""

from __future__ import annotations

import re
from typing import Any

from django.http import QueryDict
from rest_framework import serializers

from documents.pages import MAX_IMAGE_WIDTH
from engines.pdf.text.render import ImageFilters, ImageSpec
from engines.pdf.types import Box, PositionText, SearchQuery
from transformsvc.fields import StrictBooleanField

_SEARCH_TEXT_MAX = 10000


class SearchQuerySerializer(serializers.Serializer):
    searchText = serializers.CharField(
        trim_whitespace=False, max_length=_SEARCH_TEXT_MAX
    )
    caseSensitive = StrictBooleanField(required=False, default=False)
    accentSensitive = StrictBooleanField(required=False, default=False)
    regex = StrictBooleanField(required=False, default=False)


_SEARCH_FLAGS = {
    "caseSensitive": "case_sensitive",
    "accentSensitive": "accent_sensitive",
    "regex": "regex",
}
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
_SURROGATE = re.compile("[\ud800-\udfff]")


def search_query(params: QueryDict) -> SearchQuery:
    """The search a page search's query string asks for; 400 as
    `SearchQuerySerializer` words it when it is not valid.

    A viewer searches as its user types: the serializer (which copies its
    fields for each request) is called only for a query it might refuse.
    """
    plain = _plain_search_query(params)
    if plain is not None:
        return plain
    query = SearchQuerySerializer(data=params)
    query.is_valid(raise_exception=True)
    return search_query_of(query.validated_data)


def search_query_of(data: dict[str, Any]) -> SearchQuery:
    """The search that a search serializer's validated data asks for."""
    return SearchQuery(
        text=str(data["searchText"]),
        **{name: bool(data[key]) for key, name in _SEARCH_FLAGS.items()},
    )


def _plain_search_query(params: QueryDict) -> SearchQuery | None:
    """The search of a query string the serializer would take as it is (each
    parameter once, a text it keeps unchanged, booleans spelled as its field
    takes them), read to the same value; None for any other."""
    text = params.get("searchText")
    if not (
        isinstance(text, str)
        and 0 < len(text) <= _SEARCH_TEXT_MAX
        and "\x00" not in text
        and _SURROGATE.search(text) is None
        and set(params) <= {"searchText", *_SEARCH_FLAGS}
        and all(len(params.getlist(key)) == 1 for key in params)
    ):
        return None
    flags: dict[str, bool] = {}
    for key, name in _SEARCH_FLAGS.items():
        flag = _BOOLEANS.get(params.get(key, "false").strip().lower())
        if flag is None:
            return None
        flags[name] = flag
    return SearchQuery(text=text, **flags)


_DESCRIPTION = re.compile(
    r"^IM_(\d{1,5})_(-?\d{1,4})(?:_FILTERS((?:~[A-Za-z]~-?\d{1,4})+))?$"
)
_FILTER_RANGES = {"C": (-100, 100), "B": (-100, 100), "I": (0, 100)}


class ImageQuerySerializer(serializers.Serializer):
    width = serializers.IntegerField(
        required=False, default=1000, min_value=1, max_value=MAX_IMAGE_WIDTH
    )
    pageImageDescription = serializers.CharField(
        required=False,
        max_length=200,
        help_text="The original's IM_<width>_<rotation>, optionally followed by "
        "_FILTERS~C~<contrast>~B~<brightness>~I~<invert> (contrast and brightness "
        "-100..100, invert 0..100); it wins over width",
    )

    def spec(self) -> ImageSpec:
        data = self.validated_data
        description = data.get("pageImageDescription")
        if not description:
            return ImageSpec(width=data["width"])
        match = _DESCRIPTION.match(description)
        if not match:
            raise serializers.ValidationError(
                {
                    "pageImageDescription": [
                        "expected IM_<width>_<rotation>[_FILTERS~C~n...]"
                    ]
                }
            )
        width, rotation = int(match[1]), int(match[2])
        if not 1 <= width <= MAX_IMAGE_WIDTH or rotation % 90:
            raise serializers.ValidationError(
                {
                    "pageImageDescription": [
                        f"width 1..{MAX_IMAGE_WIDTH}, rotation a multiple of 90"
                    ]
                }
            )
        values = {"C": 0, "B": 0, "I": 0}
        parts = (match[3] or "").split("~")[1:]
        for kind, value in zip(parts[::2], parts[1::2], strict=True):
            low, high = _FILTER_RANGES.get(kind.upper(), (1, 0))
            if not low <= int(value) <= high:
                raise serializers.ValidationError(
                    {
                        "pageImageDescription": [
                            f"filter {kind}~{value} is unknown or out of range"
                        ]
                    }
                )
            values[kind.upper()] = int(value)
        return ImageSpec(
            width=width,
            rotation=rotation % 360,
            filters=ImageFilters(
                contrast=values["C"], brightness=values["B"], invert=values["I"]
            ),
        )


class BoxSerializer(serializers.Serializer):
    x = serializers.FloatField()
    y = serializers.FloatField()
    w = serializers.FloatField()
    h = serializers.FloatField()


class ClickableDestinationSerializer(serializers.Serializer):
    action = serializers.CharField()
    destination = serializers.CharField()
    position = BoxSerializer()


class PositionTextSerializer(serializers.Serializer):
    pageNumber = serializers.IntegerField()
    position = BoxSerializer()
    text = serializers.CharField()
    individualWidths = serializers.ListField(child=serializers.FloatField())
    fontSize = serializers.FloatField()
    font = serializers.CharField()
    clickableDestination = ClickableDestinationSerializer(allow_null=True)
    paragraphId = serializers.IntegerField()
    rightToLeftText = serializers.BooleanField()
    startTime = serializers.FloatField()
    rotation = serializers.IntegerField()


class PageContentsSerializer(serializers.Serializer):
    """GET .../pages/<n>/text/position: the original's PageContents."""

    pageNumber = serializers.IntegerField()
    positionTextList = PositionTextSerializer(many=True)
    imageHyperlinkPositionList = ClickableDestinationSerializer(many=True)


class TextRangeSerializer(serializers.Serializer):
    firstCharacter = serializers.IntegerField()
    lastCharacter = serializers.IntegerField()


class SearchResultSerializer(serializers.Serializer):
    positionText = PositionTextSerializer()
    textRangeList = TextRangeSerializer(many=True)


class SearchResultsSerializer(serializers.Serializer):
    searchResults = SearchResultSerializer(many=True)


def _box(box: Box) -> dict[str, float]:
    return {
        "x": round(box.x, 3),
        "y": round(box.y, 3),
        "w": round(box.w, 3),
        "h": round(box.h, 3),
    }


def position_text(item: PositionText) -> dict[str, Any]:
    link = item.link
    return {
        "pageNumber": item.page,
        "position": _box(item.position),
        "text": item.text,
        "individualWidths": [round(w, 4) for w in item.individual_widths],
        "fontSize": round(item.font_size, 3),
        "font": item.font,
        "clickableDestination": None
        if link is None
        else {
            "action": link.action,
            "destination": link.destination,
            "position": _box(link.position),
        },
        "paragraphId": item.paragraph_id,
        "rightToLeftText": item.right_to_left,
        "startTime": -1.0,
        "rotation": item.rotation,
    }


def search_results(items: list[PositionText]) -> dict[str, Any]:
    return {
        "searchResults": [
            {
                "positionText": position_text(item),
                "textRangeList": [
                    {"firstCharacter": 0, "lastCharacter": len(item.text) - 1}
                ],
            }
            for item in items
        ]
    }


def page_contents(page: int, lines: list[PositionText]) -> dict[str, Any]:
    # Links over images are not told apart from the others yet: every link of the
    # page already comes as the clickableDestination of the text under it.
    return {
        "pageNumber": page,
        "positionTextList": [position_text(line) for line in lines],
        "imageHyperlinkPositionList": [],
    }


class RangeSearchQuerySerializer(SearchQuerySerializer):
    fromPage = serializers.IntegerField(
        required=False, default=0, min_value=0, help_text="First page, from 0"
    )
    toPage = serializers.IntegerField(
        required=False,
        default=-1,
        min_value=-1,
        help_text="Last page, inclusive; -1 (the default) = the last page",
    )


class PagesSearchResultSerializer(serializers.Serializer):
    """GET /documents/<id>/pages: the original's PagesSearchResult (its id field
    is `uuid`), with the search's status beside it."""

    uuid = serializers.DictField(child=serializers.CharField())
    searchText = serializers.CharField()
    pageList = serializers.ListField(child=serializers.IntegerField())
    searchStatus = serializers.ChoiceField(choices=["COMPLETED", "PARTIAL"])
    lastPageSearched = serializers.IntegerField()


class MultiPagesSearchResultSerializer(serializers.Serializer):
    """GET /documents/<id>/search: the original's MultiPagesSearchResult."""

    documentId = serializers.DictField(child=serializers.CharField())
    searchText = serializers.CharField()
    searchStatus = serializers.ChoiceField(
        choices=["COMPLETED", "PARTIAL"],
        help_text="PARTIAL: the time or result budget ran out; go on from "
        "lastPageSearched + 1",
    )
    lastPageSearched = serializers.IntegerField()
    pagesResults = serializers.DictField(
        child=SearchResultSerializer(many=True),
        help_text="page number (from 0, as a string) → its matches",
    )


def pages_result(
    document_id: str, text: str, pages: list[int], status: str, last: int
) -> dict[str, Any]:
    return {
        "uuid": {"id": document_id},
        "searchText": text,
        "pageList": pages,
        "searchStatus": status,
        "lastPageSearched": last,
    }


def multi_pages_result(
    document_id: str,
    text: str,
    results: dict[int, list[PositionText]],
    status: str,
    last: int,
) -> dict[str, Any]:
    return {
        "documentId": {"id": document_id},
        "searchText": text,
        "searchStatus": status,
        "lastPageSearched": last,
        "pagesResults": {
            str(page): search_results(items)["searchResults"]
            for page, items in sorted(results.items())
        },
    }
