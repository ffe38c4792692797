"""The admin's documents list as a library: its filters over the queries of
documents.library (what people uploaded by default, formats as people know
them), and its search (words of titles, ids, SHA-256)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from documents.library import FORMAT_NAMES, SHOWN, UPLOADED, format_match, search


class FormatFilter(admin.SimpleListFilter):
    title = "format"
    parameter_name = "format"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        labels = [*FORMAT_NAMES, "audio · video", "other"]
        return [(label, label) for label in labels]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        match = format_match(self.value() or "")
        return queryset if match is None else queryset.filter(match)


class ShownFilter(admin.SimpleListFilter):
    """What people uploaded by default; the rest on demand. A search looks at
    every document unless a choice is made (an id pasted from an order finds its
    result)."""

    title = "documents"
    parameter_name = "show"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        # "uploaded" is the default choice, drawn first by choices().
        return [(k, label) for k, (label, _) in SHOWN.items() if k != "uploaded"]

    def choices(self, changelist: Any) -> Iterator[Any]:
        searching = bool(changelist.query)
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "Every document (searching)"
            if searching
            else "Uploaded by people",
        }
        for value, label in self.lookup_choices:
            yield {
                "selected": self.value() == value,
                "query_string": changelist.get_query_string(
                    {self.parameter_name: value}
                ),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = SHOWN.get(self.value() or "")
        if chosen is not None:
            return queryset.filter(chosen[1])
        if request.GET.get("q", "").strip():
            return queryset
        return queryset.filter(UPLOADED)


__all__ = ["FormatFilter", "ShownFilter", "search"]
