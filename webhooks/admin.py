"""Deliveries and their attempts, read-only: what was sent where, what came back."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from webhooks.models import Attempt, Delivery


class AttemptInline(admin.TabularInline[Attempt, Delivery]):
    model = Attempt
    extra = 0
    can_delete = False
    fields = ("number", "at", "status", "latency_ms", "response_head", "error")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin[Delivery]):
    list_display = (
        "id",
        "kind",
        "order_id",
        "url",
        "state",
        "attempts",
        "last_status",
        "created_at",
        "delivered_at",
        "next_attempt_at",
    )
    list_filter = ("state", "kind")
    search_fields = ("id", "order_id", "url")
    date_hierarchy = "created_at"
    inlines = [AttemptInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Delivery._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
