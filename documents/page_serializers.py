"""Wire shapes of text search and page text (PositionText of the interface)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from documents.pdf.types import Box, PositionText
from transformsvc.fields import StrictBooleanField


class SearchQuerySerializer(serializers.Serializer):
    searchText = serializers.CharField(trim_whitespace=False, max_length=10000)
    caseSensitive = StrictBooleanField(required=False, default=False)
    accentSensitive = StrictBooleanField(required=False, default=False)
    regex = StrictBooleanField(required=False, default=False)


class ImageQuerySerializer(serializers.Serializer):
    width = serializers.IntegerField(
        required=False, default=1000, min_value=1, max_value=4000
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
