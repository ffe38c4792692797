"""The admin of every kind of order: lists that fit a screen and stay fast on a
million rows, links from orders to their documents, and the actions an operator
needs (retry a failed order, cancel a queued one, delete as the API does).

A kind's admin subclasses OrderAdminBase and adds only what is its own:
`kind_columns` (e.g. "format"), `kind_filters`, `operations` (label → lookups,
e.g. {"zip": {"format": "zip"}}). A kind that lists its own `list_display` or
`list_filter` in the older style gets them mapped onto the shared columns.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, ClassVar

from django.contrib import admin, messages
from django.contrib.admin.utils import quote, unquote
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from jobs import services
from jobs.admin import detail
from jobs.admin.columns import RENAMED, OrderColumns, attach
from jobs.admin.documents import documents
from jobs.admin.filters import (
    InputDocumentFilter,
    LiveFilter,
    OperationFilter,
    RetryFilter,
)
from jobs.admin.paging import EstimatedCountPaginator
from jobs.admin.retries import why_not
from jobs.admin.rows import load
from jobs.models import OrderBase, OrderInput
from jobs.registry import kind_of
from jobs.states import State
from transformsvc.problems import ServiceError

# Documents whose titles hold the searched words, at most (newest first).
TITLE_MATCHES = 500

SHARED_COLUMNS = (
    "thumbnail",
    "title",
    "order_id",
    "state_badge",
    "operations_done",
    "volume",
    "owner_name",
    "timing",
    "error",
)
SHARED_FILTERS: tuple[Any, ...] = (
    "state",
    OperationFilter,
    InputDocumentFilter,
    ("owner", admin.RelatedFieldListFilter),
    ("queued_at", admin.DateFieldListFilter),
    RetryFilter,
    LiveFilter,
)


class OrderAdminBase(OrderColumns, admin.ModelAdmin[Any]):
    change_list_template = "jobs/admin/order_change_list.html"
    change_form_template = "jobs/admin/order_change_form.html"
    delete_confirmation_template = "jobs/admin/order_delete_confirmation.html"
    delete_selected_confirmation_template = "jobs/admin/order_delete_selected.html"
    list_display = SHARED_COLUMNS
    list_filter = SHARED_FILTERS
    list_per_page = 50
    list_max_show_all = 200
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER
    paginator = EstimatedCountPaginator
    ordering = ("-queued_at",)
    search_fields = ("id",)  # shows the search box; the search is ours
    search_help_text = (
        "An order id (or its first characters), an input document id, "
        "an owner's user name, or words of an input document's title."
    )
    actions = ["retry_selected", "cancel_selected", "delete_selected"]

    kind_columns: ClassVar[tuple[str, ...]] = ()
    kind_filters: ClassVar[tuple[Any, ...]] = ()

    # --- lists -------------------------------------------------------------------

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Deleted orders too (LiveFilter shows the live ones unless asked).
        return self.model.history.select_related("owner")

    def get_list_display(self, request: HttpRequest) -> Any:
        if self.list_display is SHARED_COLUMNS:
            columns = list(SHARED_COLUMNS)
            at = columns.index("state_badge") + 1
            columns[at:at] = self.kind_columns
            return columns
        named = [RENAMED.get(c, c) for c in self.list_display]
        columns = ["thumbnail", "title"] + [
            c for c in named if c not in ("thumbnail", "title")
        ]
        return list(dict.fromkeys(columns))

    def get_list_display_links(
        self, request: HttpRequest, list_display: Any
    ) -> tuple[str, ...]:
        return ("title",)

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        shared = {_filter_key(f) for f in SHARED_FILTERS}
        own = [f for f in self.list_filter if _filter_key(f) not in shared]
        return [*self.kind_filters, *own, *SHARED_FILTERS]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(
            request, {**(extra_context or {}), "now_counts": self.now_counts()}
        )

    def now_counts(self) -> list[tuple[str, int, str]]:
        """Orders waiting and running now, failed in the last day: small counts
        on the state and processed_at indexes, never the whole table."""
        live = self.model.objects
        day_ago = timezone.now() - timedelta(days=1)
        return [
            ("queued", live.filter(state=State.QUEUED).count(), "?state__exact=QUEUED"),
            (
                "processing",
                live.filter(state=State.PROCESSING).count(),
                "?state__exact=PROCESSING",
            ),
            (
                "failed in the last 24 h",
                live.filter(state=State.FAILED, processed_at__gte=day_ago).count(),
                "?state__exact=FAILED",
            ),
        ]

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        attach(list(changelist.result_list))
        return changelist

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        """Order ids (or their first characters), input document ids, owner names,
        and else words of an input document's title.

        Each is one index; which one the term is, is asked first (three cheap
        lookups) so the list reads only that index: an OR of the three would have
        PostgreSQL walk the whole table in queued order to find a rare document.
        Words are looked up among document titles (at most `TITLE_MATCHES`
        documents), then their orders by the inputs' document index."""
        term = search_term.strip()
        if not term:
            return queryset, False
        kind = kind_of(self.model).name
        used = OrderInput.objects.filter(kind=kind, document_id=term)
        owners = get_user_model().objects.filter(username=term)
        matches = [
            Q(pk__startswith=term)
            if self.model.history.filter(pk__startswith=term).exists()
            else None,
            Q(pk__in=used.values("order_id")) if used.exists() else None,
            Q(owner__in=owners.values("pk")) if owners.exists() else None,
        ]
        found = [m for m in matches if m is not None]
        if not found:
            titled = documents().titled(term.split(), limit=TITLE_MATCHES)
            taken = OrderInput.objects.filter(kind=kind, document_id__in=titled)
            return queryset.filter(pk__in=taken.values("order_id")), False
        match = found[0]
        for more in found[1:]:
            match |= more
        return queryset.filter(match), False

    # --- one order -----------------------------------------------------------------

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields] + list(detail.FIELDS)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return detail.fieldsets(self.model)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        order = self.get_object(request, unquote(object_id))
        extra = detail.context(self, request, order) if order is not None else {}
        return super().change_view(
            request, object_id, form_url, {**(extra_context or {}), **extra}
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_retry_permission(self, request: HttpRequest) -> bool:
        """Retry and cancel need the change permission (the pages stay read-only)."""
        opts = self.model._meta
        return bool(request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}"))

    has_cancel_permission = has_retry_permission

    # --- actions -------------------------------------------------------------------

    @admin.action(description="Retry the selected failed orders", permissions=["retry"])
    def retry_selected(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        """Retries the failed orders a retry can cure; says why the others were
        skipped (jobs.admin.retries)."""
        chosen = list(queryset)
        found = load(chosen, thumb_width=0)
        made, skipped = [], []
        for order in chosen:
            docs = found.get(order.pk)
            reason = why_not(order, [card for card, _ in docs.inputs] if docs else [])
            if reason is not None:
                skipped.append(f"{order.pk[:8]}… ({reason})")
                continue
            try:
                made.append(services.order_retry(order))
            except ServiceError as exc:
                self.message_user(request, exc.detail, messages.ERROR)
        if made:
            self.message_user(request, f"Retried {len(made)} order(s) as new orders.")
        if skipped:
            self.message_user(
                request,
                f"{len(skipped)} order(s) not retried: " + "; ".join(skipped),
                messages.WARNING,
            )

    @admin.action(
        description="Cancel the selected queued orders", permissions=["cancel"]
    )
    def cancel_selected(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        cancelled = sum(services.order_cancel(o) for o in queryset)
        skipped = queryset.count() - cancelled
        if cancelled:
            self.message_user(request, f"Cancelled {cancelled} queued order(s).")
        if skipped:
            self.message_user(
                request,
                f"{skipped} order(s) skipped: only queued orders cancel "
                "(a worker may have started them).",
                messages.WARNING,
            )

    # --- deleting, as the API does -------------------------------------------------

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        services.order_remove(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for order in queryset:
            services.order_remove(order)

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        """What deleting means for each order, named (what depends on it stays)."""
        orders = list(objs)
        described = [
            item for order in orders for item in detail.deletion_warning(self, order)
        ]
        return (
            described,
            {str(self.model._meta.verbose_name_plural): len(orders)},
            set(),
            [],
        )

    # --- buttons of the order page -------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        prefix = f"{self.model._meta.app_label}_{self.model._meta.model_name}"
        return [
            path(
                "<path:object_id>/retry/",
                self.admin_site.admin_view(require_POST(self.retry_view)),
                name=f"{prefix}_retry",
            ),
            path(
                "<path:object_id>/cancel/",
                self.admin_site.admin_view(require_POST(self.cancel_view)),
                name=f"{prefix}_cancel",
            ),
            *super().get_urls(),
        ]

    def _object_or_404(self, request: HttpRequest, object_id: str) -> Any:
        return get_object_or_404(self.get_queryset(request), pk=unquote(object_id))

    def retry_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        order = self._object_or_404(request, object_id)
        if not self.has_retry_permission(request):
            return HttpResponse(status=403)
        inputs = load([order], thumb_width=0)[order.pk].inputs
        reason = why_not(order, [card for card, _ in inputs])
        if reason is not None:
            self.message_user(
                request, f"Order {order.pk} is not retried: {reason}.", messages.ERROR
            )
            return HttpResponseRedirect(self.order_url(order))
        try:
            retry = services.order_retry(order)
        except ServiceError as exc:
            self.message_user(request, exc.detail, messages.ERROR)
            return HttpResponseRedirect(self.order_url(order))
        self.message_user(request, f"Order {order.pk} is retried as {retry.pk}.")
        return HttpResponseRedirect(self.order_url(retry))

    def cancel_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        order = self._object_or_404(request, object_id)
        if not self.has_cancel_permission(request):
            return HttpResponse(status=403)
        if services.order_cancel(order):
            self.message_user(request, f"Order {order.pk} is cancelled.")
        else:
            self.message_user(
                request,
                f"Order {order.pk} is no longer queued; it was not cancelled.",
                messages.WARNING,
            )
        return HttpResponseRedirect(self.order_url(order))

    def order_url(self, order: OrderBase) -> str:
        opts = type(order)._meta
        return reverse(
            f"{self.admin_site.name}:{opts.app_label}_{opts.model_name}_change",
            args=[quote(order.pk)],
        )


def _filter_key(list_filter: Any) -> Any:
    """The field or class a list_filter entry filters on ("state", "queued_at"...)."""
    return list_filter[0] if isinstance(list_filter, tuple) else list_filter
