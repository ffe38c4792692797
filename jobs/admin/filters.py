"""List filters the order admins share: live or deleted, operation, input
document, owner. None of them counts or lists distinct values over the table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from jobs.admin.documents import documents
from jobs.models import OrderInput
from jobs.registry import kind_of


class LiveFilter(admin.SimpleListFilter):
    """Live orders by default; deleted ones (cancelled or removed) on demand."""

    title = "deleted"
    parameter_name = "deleted"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Deleted"), ("all", "Live and deleted")]

    def choices(self, changelist: Any) -> Iterator[Any]:
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "Live",
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
        if self.value() == "yes":
            return queryset.filter(deleted_at__isnull=False)
        if self.value() == "all":
            return queryset
        return queryset.filter(deleted_at__isnull=True)


class OperationFilter(admin.SimpleListFilter):
    """What the order does, from the admin's `operations` (label → lookups)."""

    title = "operation"
    parameter_name = "operation"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(label, label) for label in getattr(model_admin, "operations", {})]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        operations = getattr(self, "_operations", None)
        if not self.value() or operations is None:
            return queryset
        return queryset.filter(**operations.get(self.value(), {}))

    def __init__(
        self,
        request: HttpRequest,
        params: dict[str, Any],
        model: type[Model],
        model_admin: Any,
    ) -> None:
        self._operations = getattr(model_admin, "operations", {})
        super().__init__(request, params, model, model_admin)


class InputDocumentFilter(admin.SimpleListFilter):
    """Orders that took one document (`?input=<id>`, linked from its page); shown
    only while it is chosen."""

    title = "input document"
    parameter_name = "input"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        chosen = request.GET.get(self.parameter_name)
        if not chosen:
            return []
        card = documents().cards([chosen], thumb_width=0)[chosen]
        return [(chosen, card.title)]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if not self.value():
            return queryset
        used = OrderInput.objects.filter(
            kind=kind_of(queryset.model).name, document_id=self.value()
        ).values("order_id")
        return queryset.filter(pk__in=used)


class RetryFilter(admin.SimpleListFilter):
    title = "retries"
    parameter_name = "retry"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Retries of a failed order")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(retry_of__isnull=False)
        return queryset
