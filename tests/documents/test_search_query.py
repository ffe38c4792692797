"""A page search's query string is read without the serializer when it is
plain; whatever it is, the answer must be the serializer's."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from rest_framework.exceptions import ValidationError

from documents import page_serializers
from documents.page_serializers import (
    SearchQuerySerializer,
    _plain_search_query,
    search_query,
)
from engines.pdf.types import SearchQuery

QUERIES = [
    {"searchText": "Return"},
    {"searchText": " two  words "},
    {"searchText": "é€", "caseSensitive": "true"},
    {"searchText": "a", "caseSensitive": " TRUE ", "accentSensitive": "0"},
    {"searchText": "a", "regex": "1", "accentSensitive": "False"},
    {"searchText": "a", "regex": "yes"},
    {"searchText": "a", "regex": ""},
    {"searchText": "a", "caseSensitive": "on"},
    {"searchText": ""},
    {"caseSensitive": "true"},
    {},
    {"searchText": "x" * 10_000},
    {"searchText": "x" * 10_001},
    {"searchText": "nul\x00byte"},
    {"searchText": "a", "other": "1"},
    [("searchText", "a"), ("searchText", "b")],
    [("searchText", "a"), ("regex", "true"), ("regex", "false")],
]


def _by_serializer(params: QueryDict) -> SearchQuery | dict[str, Any]:
    query = SearchQuerySerializer(data=params)
    if not query.is_valid():
        return dict(query.errors)
    data = query.validated_data
    return SearchQuery(
        text=data["searchText"],
        case_sensitive=data["caseSensitive"],
        accent_sensitive=data["accentSensitive"],
        regex=data["regex"],
    )


def _by_search_query(params: QueryDict) -> SearchQuery | dict[str, Any]:
    try:
        return search_query(params)
    except ValidationError as exc:
        assert isinstance(exc.detail, dict)
        return dict(exc.detail)


@pytest.mark.parametrize("query", QUERIES, ids=lambda query: repr(query)[:40])
def test_a_query_reads_as_the_serializer_reads_it(query: Any) -> None:
    params = QueryDict(urlencode(query))
    assert _by_search_query(params) == _by_serializer(params)


def test_surrogates_are_refused_as_the_serializer_refuses_them() -> None:
    params = QueryDict(mutable=True)
    params["searchText"] = "half \ud800 pair"
    assert _by_search_query(params) == _by_serializer(params)
    assert isinstance(_by_serializer(params), dict)


PLAIN = QUERIES[:5] + [{"searchText": "x" * 10_000}]


@pytest.mark.parametrize("query", PLAIN, ids=lambda query: repr(query)[:40])
def test_a_plain_query_is_read_without_the_serializer(
    query: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    params = QueryDict(urlencode(query))
    expected = _by_serializer(params)
    assert _plain_search_query(params) == expected

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the serializer was called for a plain query")

    monkeypatch.setattr(page_serializers, "SearchQuerySerializer", refused)
    assert search_query(params) == expected
