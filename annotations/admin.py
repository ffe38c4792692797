from collections.abc import Iterator

from django.contrib import admin
from django.http import HttpRequest

from annotations.models import StoredAnnotation
from documents.admin import overlays
from documents.models import Document


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


def _drawn(doc: Document) -> Iterator[overlays.Shape]:
    """The annotations stored on `doc`, whoever owns them (staff see all), for
    the admin's viewer."""
    stored = StoredAnnotation.objects.filter(document=doc).order_by("page", "id")
    for row in stored[: overlays.MOST]:
        data = {**row.data, "type": row.kind, "page": row.page}
        shape = overlays.from_annotation(data, "stored annotation")
        if shape is not None:
            yield shape


overlays.provide("stored annotations", _drawn)
