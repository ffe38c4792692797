"""The documents admin: pictures, downloads, the orders around each document,
and deleting exactly as the API does (files removed, reports kept)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.html import format_html
from django.utils.safestring import SafeString

from documents import services
from documents.admin import (
    cards,
    detail,
    fidelity,
    library,
    overlays,
    pending,
    relations,
    viewer,
    views,
)
from documents.models import Document
from jobs.admin import display
from jobs.admin.documents import provide
from jobs.admin.paging import EstimatedCountPaginator
from jobs.models import OrderInput

provide(cards.Cards())
overlays.provide("pending redactions", pending.pending_redactions)


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin[Document]):
    change_form_template = "documents/admin/document_change_form.html"
    delete_confirmation_template = "documents/admin/document_delete_confirmation.html"
    delete_selected_confirmation_template = (
        "documents/admin/document_delete_selected.html"
    )
    list_display = (
        "thumbnail",
        "name",
        "document_id",
        "kind",
        "pages",
        "size_human",
        "source",
        "owner",
        "created",
        "orders",
    )
    list_display_links = ("name",)
    list_filter = (
        library.ShownFilter,
        library.FormatFilter,
        ("owner", admin.RelatedFieldListFilter),
        ("created_at", admin.DateFieldListFilter),
    )
    search_fields = ("title",)
    search_help_text = (
        "A document id (or its first characters), words of its title (in any "
        "order), or its SHA-256."
    )
    list_per_page = 50
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER
    paginator = EstimatedCountPaginator
    ordering = ("-created_at",)
    list_select_related = ("owner",)
    readonly_fields = (
        "id",
        "mime_type",
        "size_human",
        "sha256",
        "page_count",
        "origin",
        "source_url",
        "parent",
        "rendition_of",
        "created",
        "rendition_fidelity",
    )
    fields = ("id", "title", "owner", *readonly_fields[1:])

    def get_queryset(self, request: HttpRequest) -> QuerySet[Document]:
        return super().get_queryset(request).defer("layout")

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        return library.search(queryset, search_term), False

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        page = list(changelist.result_list)
        uses = dict(
            OrderInput.objects.filter(document_id__in=[d.id for d in page])
            .values_list("document_id")
            .annotate(n=Count("*"))
            .values_list("document_id", "n")
        )
        made = relations.makers(page)
        for doc in page:
            doc._ts_orders = uses.get(doc.id, 0)
            doc._ts_made_by = made.get(doc.id)
        return changelist

    # --- columns -------------------------------------------------------------------

    @admin.display(description="")
    def thumbnail(self, obj: Document) -> SafeString:
        return format_html(
            '<img src="{}" alt="" loading="lazy" class="ts-thumb">',
            cards.card(obj).thumbnail_url,
        )

    @admin.display(description="title", ordering="title")
    def name(self, obj: Document) -> SafeString:
        name = cards.display_name(obj)
        css = "ts-title" if obj.title else "ts-title ts-untitled"
        # Cut in the middle: a part's folders and its file name both show.
        return format_html(
            '<span class="{}" title="{}">{}</span>',
            css,
            name,
            display.middle(name, 48),
        )

    @admin.display(description="pages", ordering="page_count")
    def pages(self, obj: Document) -> str:
        return str(obj.page_count) if obj.page_count else display.DASH

    @admin.display(description="from", ordering="origin")
    def source(self, obj: Document) -> SafeString | str:
        made = getattr(obj, "_ts_made_by", None)
        if made is None:
            return str(obj.get_origin_display())
        name = f"{made.kind} {made.order.pk[:8]}…"
        if made.url:
            return format_html('<a href="{}">{}</a>', made.url, name)
        return name

    @admin.display(description="id", ordering="id")
    def document_id(self, obj: Document) -> SafeString:
        return display.short_id(obj.id, 12)

    @admin.display(description="format", ordering="mime_type")
    def kind(self, obj: Document) -> SafeString:
        extra = (
            " part" if obj.parent_id else (" rendition" if obj.rendition_of_id else "")
        )
        return format_html(
            "{}{}", display.badge(cards.kind_label(obj.mime_type), "op"), extra
        )

    @admin.display(description="size", ordering="size")
    @admin.display(description="Rendition")
    def rendition_fidelity(self, obj: Document) -> SafeString:
        return fidelity.fidelity_html(obj)

    def size_human(self, obj: Document) -> str:
        return display.human_bytes(obj.size)

    @admin.display(description="created at", ordering="created_at")
    def created(self, obj: Document) -> str:
        return display.when(obj.created_at)

    @admin.display(description="orders")
    def orders(self, obj: Document) -> int:
        return int(getattr(obj, "_ts_orders", 0))

    # --- one document --------------------------------------------------------------

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        doc = Document.objects.filter(pk=unquote(object_id)).first()
        extra = detail.context(request, doc) if doc is not None else {}
        return super().change_view(
            request, object_id, form_url, {**(extra_context or {}), **extra}
        )

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/viewer/",
                wrap(self.viewer_view),
                name="documents_document_viewer",
            ),
            path(
                "<path:object_id>/viewer/text/<int:page>.json",
                wrap(viewer.page_text),
                name="documents_document_viewer_text",
            ),
            path(
                "<path:object_id>/viewer/search.json",
                wrap(viewer.search_pages),
                name="documents_document_viewer_search",
            ),
            path(
                "<path:object_id>/page/<int:page>.png",
                wrap(views.page_image),
                name="documents_document_page",
            ),
            path(
                "<path:object_id>/download/",
                wrap(views.download),
                name="documents_document_download",
            ),
            *super().get_urls(),
        ]

    def viewer_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The viewer alone, at a URL staff can keep: `?page=N` (from 1) opens
        page N, `?q=words` searches, `?order=<id>` draws that order's areas."""
        doc = Document.objects.filter(pk=unquote(object_id)).first()
        if doc is None:
            raise Http404("no such document")
        if not self.has_view_permission(request, doc):
            raise PermissionDenied
        name = cards.display_name(doc)
        return TemplateResponse(
            request,
            "documents/admin/viewer_page.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": name,
                "subtitle": "Viewer",
                "doc": doc,
                "name": name,
                "card": cards.card(doc),
                **viewer.context(request, doc),
            },
        )

    # --- deleting, as the API does -------------------------------------------------

    def delete_model(self, request: HttpRequest, obj: Document) -> None:
        services.document_remove(obj)

    def delete_queryset(
        self, request: HttpRequest, queryset: QuerySet[Document]
    ) -> None:
        for doc in queryset:
            if Document.objects.filter(pk=doc.pk).exists():  # not gone with a parent
                services.document_remove(doc)

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        docs = list(objs)
        described = [item for doc in docs for item in detail.deletion_warning(doc)]
        return described, {"documents": len(docs)}, set(), []
