from django.contrib import admin, messages
from django.http import HttpRequest

from documents.keys import hash_key
from documents.models import ApiKey, Document, WorkerHeartbeat


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "title",
        "mime_type",
        "page_count",
        "size",
        "origin",
        "created_at",
    )
    list_filter = ("mime_type", "origin", ("created_at", admin.DateFieldListFilter))
    search_fields = ("id", "title", "sha256")
    date_hierarchy = "created_at"
    readonly_fields = (
        "id",
        "mime_type",
        "size",
        "sha256",
        "page_count",
        "layout",
        "file",
        "origin",
        "source_url",
        "parent",
        "rendition_of",
        "created_at",
    )
    fields = ("id", "title", "owner", *readonly_fields[1:])
    list_select_related = False
    show_full_result_count = False

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ("name", "seen_at")
    readonly_fields = ("name", "seen_at")

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
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
    fields = ("owner", "name", "is_active", "prefix", "created_at", "last_used_at")
    readonly_fields = ("prefix", "created_at", "last_used_at")

    def save_model(
        self, request: HttpRequest, obj: ApiKey, form: object, change: bool
    ) -> None:
        if not change:
            import secrets

            from documents.keys import PREFIX

            plain = PREFIX + secrets.token_urlsafe(32)
            obj.prefix, obj.key_hash = plain[:12], hash_key(plain)
            messages.warning(
                request, f"The new key is {plain} — copy it now, it is not shown again."
            )
        super().save_model(request, obj, form, change)
