from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from accounts.keys import fill_key, webhook_secret_of
from accounts.models import ApiKey, WebhookSecret


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin[ApiKey]):
    list_display = (
        "prefix",
        "owner",
        "name",
        "is_active",
        "created_at",
        "last_used_at",
    )
    list_filter = ("is_active",)
    search_fields = ("prefix", "owner__username", "name")
    fields = (
        "owner",
        "name",
        "is_active",
        "callback_url",
        "prefix",
        "created_at",
        "last_used_at",
    )
    readonly_fields = ("prefix", "created_at", "last_used_at")

    def save_model(
        self, request: HttpRequest, obj: ApiKey, form: Any, change: bool
    ) -> None:
        if not change:
            plain = fill_key(obj)
            messages.warning(
                request, f"The new key is {plain} — copy it now, it is not shown again."
            )
        super().save_model(request, obj, form, change)
        if not change:
            secret = webhook_secret_of(obj.owner_id)
            messages.info(request, f"Webhooks of {obj.owner} are signed with {secret}.")


@admin.register(WebhookSecret)
class WebhookSecretAdmin(admin.ModelAdmin[WebhookSecret]):
    """The secret a receiver verifies an owner's webhooks with (Standard Webhooks)."""

    list_display = ("owner", "secret", "created_at")
    readonly_fields = ("owner", "secret", "created_at")
    search_fields = ("owner__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
