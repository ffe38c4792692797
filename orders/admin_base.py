"""Read-only admin for orders, with per-state counts and the slowest and failed orders."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, DurationField, ExpressionWrapper, F
from django.http import HttpRequest, HttpResponse

from orders.states import State


class OrderAdminBase(admin.ModelAdmin):
    change_list_template = "admin/orders/change_list.html"
    list_filter = ("state", ("queued_at", admin.DateFieldListFilter))
    search_fields = ("id",)
    date_hierarchy = "queued_at"
    ordering = ("-queued_at",)

    @admin.display(description="queued ms")
    def queued_time(self, obj: Any) -> int | None:
        return obj.queued_ms

    @admin.display(description="processing ms")
    def processing_time(self, obj: Any) -> int | None:
        return obj.processing_ms

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields] + [
            "queued_time",
            "processing_time",
        ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        qs = self.model.objects.all()
        counts = dict(
            qs.values_list("state").annotate(n=Count("id")).values_list("state", "n")
        )
        duration = ExpressionWrapper(
            F("processed_at") - F("started_at"), output_field=DurationField()
        )
        extra = {
            "state_counts": [(s.value, counts.get(s.value, 0)) for s in State],
            "slowest": qs.filter(state=State.PROCESSED)
            .annotate(d=duration)
            .order_by("-d")[:5],
            "failed": qs.filter(state=State.FAILED).order_by("-processed_at")[:5],
        }
        return super().changelist_view(request, {**(extra_context or {}), **extra})
