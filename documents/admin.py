from django.contrib import admin

from documents.models import Document, WorkerHeartbeat


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "mime_type", "page_count", "size", "origin", "created_at")
    list_filter = ("mime_type", "origin", ("created_at", admin.DateFieldListFilter))
    search_fields = ("id", "title", "sha256")
    date_hierarchy = "created_at"
    readonly_fields = ("id", "mime_type", "size", "sha256", "page_count", "layout", "file",
                       "origin", "source_url", "parent", "rendition_of", "created_at")
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
