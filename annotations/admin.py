from django.contrib import admin
from django.http import HttpRequest

from annotations.models import StoredAnnotation


@admin.register(StoredAnnotation)
class StoredAnnotationAdmin(admin.ModelAdmin[StoredAnnotation]):
    list_display = ("annotation_id", "kind", "document", "page", "owner", "updated_at")
    list_filter = ("kind",)
    search_fields = ("annotation_id", "document__id")
    readonly_fields = (
        "document",
        "annotation_id",
        "kind",
        "page",
        "data",
        "owner",
        "created_at",
        "updated_at",
    )
    list_select_related = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
