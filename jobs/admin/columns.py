"""The columns of the order lists, shared by every kind (a mixin of
OrderAdminBase). A page's documents are loaded once (`attach`), then read here."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from jobs.admin import display
from jobs.admin.documents import DocumentCard
from jobs.admin.rows import OrderDocuments, load
from jobs.models import OrderBase

THUMB_WIDTH = 96  # pixels rendered for a 44-pixel-wide thumbnail (sharp on HiDPI)


def attach(orders: list[OrderBase]) -> None:
    """Load the documents of a page of orders once, for the columns below."""
    found = load(orders, thumb_width=THUMB_WIDTH)
    for order in orders:
        order._ts_docs = found.get(order.pk, OrderDocuments())  # type: ignore[attr-defined]


def _docs(order: OrderBase) -> OrderDocuments:
    found = getattr(order, "_ts_docs", None)
    if found is None:
        attach([order])
        found = order._ts_docs  # type: ignore[attr-defined]
    assert isinstance(found, OrderDocuments)
    return found


def thumbnail_html(card: DocumentCard, css: str = "ts-thumb") -> str:
    """Escaped HTML of a card's picture, linked to its page when it exists."""
    image = (
        f'<img src="{escape(card.thumbnail_url)}" alt="" loading="lazy" '
        f'class="{css}" title="{escape(card.title)}">'
    )
    if card.admin_url:
        return f'<a href="{escape(card.admin_url)}">{image}</a>'
    return image


class OrderColumns:
    # What an order does: label → lookups on the kind's columns (filter + badges).
    operations: ClassVar[dict[str, dict[str, Any]]] = {}

    @admin.display(description="")
    def thumbnail(self, obj: OrderBase) -> SafeString:
        docs = _docs(obj)
        first = docs.inputs[0][0] if docs.inputs else None
        out = docs.outputs[0] if docs.outputs else None
        parts = []
        if first is not None:
            parts.append(thumbnail_html(first))
        if out is not None and out.exists:
            parts.append('<span class="ts-arrow">→</span>')
            parts.append(thumbnail_html(out))
        return mark_safe(f'<span class="ts-thumbs">{"".join(parts)}</span>')

    @admin.display(description="documents")
    def title(self, obj: OrderBase) -> SafeString:
        inputs = [card for card, _ in _docs(obj).inputs]
        if not inputs:
            return mark_safe('<span class="ts-muted">no inputs recorded</span>')
        first = inputs[0]
        more = len(inputs) - 1
        name = first.title if first.exists else f"{first.title} (deleted)"
        tail = f' <span class="ts-muted">+ {more} more</span>' if more else ""
        return mark_safe(
            f'<span class="ts-title">{escape(display.truncate(name, 60))}</span>{tail}'
        )

    @admin.display(description="id", ordering="id")
    def order_id(self, obj: OrderBase) -> SafeString:
        return display.short_id(obj.pk)

    @admin.display(description="state", ordering="state")
    def state_badge(self, obj: OrderBase) -> SafeString:
        shown = [display.order_badges(obj)]
        retry_of = getattr(obj, "retry_of_id", None)  # the key, without a query
        if retry_of:
            shown.append(display.badge("retry", "op", f"retry of {retry_of}"))
        return mark_safe(" ".join(shown))

    @admin.display(description="does")
    def operations_done(self, obj: OrderBase) -> SafeString:
        """The order's format when its kind has one, then what it does."""
        done = [
            label
            for label, lookups in self.operations.items()
            if all(_matches(obj, k, v) for k, v in lookups.items())
        ]
        shown = getattr(obj, "get_format_display", None)
        head = f"<b>{escape(shown())}</b> " if shown else ""
        return mark_safe(head + display.badges(done))

    @admin.display(description="pages in → out")
    def pages(self, obj: OrderBase) -> str:
        return f"{_or_dash(obj.input_pages)} → {_or_dash(obj.page_count)}"

    @admin.display(description="size in → out")
    def sizes(self, obj: OrderBase) -> str:
        return (
            f"{display.human_bytes(obj.input_bytes)} → "
            f"{display.human_bytes(obj.output_bytes)}"
        )

    @admin.display(description="pages · size, in → out")
    def volume(self, obj: OrderBase) -> SafeString:
        return mark_safe(
            f'{escape(self.pages(obj))}<br><span class="ts-muted">'
            f"{escape(self.sizes(obj))}</span>"
        )

    @admin.display(description="queued at · wait / run", ordering="queued_at")
    def timing(self, obj: OrderBase) -> SafeString:
        return mark_safe(
            f'{display.when(obj.queued_at)}<br><span class="ts-muted">'
            f"{escape(self.durations(obj))}</span>"
        )

    @admin.display(description="queued at", ordering="queued_at")
    def queued(self, obj: OrderBase) -> str:
        return display.when(obj.queued_at)

    @admin.display(description="ended at", ordering="processed_at")
    def ended(self, obj: OrderBase) -> str:
        return display.when(obj.processed_at)

    @admin.display(description="wait / run")
    def durations(self, obj: OrderBase) -> str:
        if obj.is_cancelled:
            return display.DASH
        return (
            f"{display.human_ms(obj.queued_ms)} / {display.human_ms(obj.processing_ms)}"
        )

    @admin.display(description="error", empty_value="")
    def error(self, obj: OrderBase) -> SafeString | str:
        if not obj.error_message:
            return ""
        return mark_safe(
            f"{display.badge(obj.error_category or 'other', 'failed')} "
            f'<span class="ts-error" title="{escape(obj.error_message)}">'
            f"{escape(display.truncate(obj.error_message, 60))}</span>"
        )

    @admin.display(description="owner", ordering="owner__username")
    def owner_name(self, obj: OrderBase) -> str:
        return obj.owner.get_username() if obj.owner_id and obj.owner else display.DASH


def _matches(obj: OrderBase, lookup: str, value: Any) -> bool:
    """`lookup` (a field, or field__gt) of an operation, tested on one order."""
    name, _, test = lookup.partition("__")
    actual = getattr(obj, name)
    if test == "gt":
        return actual is not None and actual > value
    return bool(actual == value)


def _or_dash(value: int | None) -> str:
    return display.DASH if value is None else str(value)


# The old column names a kind's admin may list, and the shared column for each.
RENAMED = {
    "id": "order_id",
    "state": "state_badge",
    "queued_at": "queued",
    "processed_at": "ended",
    "queued_time": "durations",
    "processing_time": "durations",
    "error_message": "error",
    "owner": "owner_name",
}
