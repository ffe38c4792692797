"""The page of one order: what it took and made (with pictures and downloads),
its timeline, its retries, and what deleting it means."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.admin.utils import quote
from django.db import models
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html

from jobs.admin import display
from jobs.admin.documents import documents
from jobs.admin.retries import why_not
from jobs.admin.rows import load, output_ids
from jobs.models import OrderBase
from jobs.registry import kind_of
from jobs.states import State

# Readonly fields of the page that are methods of the admin, not model fields.
FIELDS = ("state_badge", "error", "queued", "ended", "durations", "owner_name")

_BASE = frozenset(f.name for f in OrderBase._meta.get_fields())


def fieldsets(model: type[OrderBase]) -> list[tuple[str, dict[str, Any]]]:
    """The kind's own request fields (JSON ones are shown pretty above), then the
    stored record, folded."""
    own = [
        f.name
        for f in model._meta.concrete_fields
        if f.name not in _BASE
        and not isinstance(f, models.JSONField | models.ForeignKey)
    ]
    record = [f.name for f in model._meta.concrete_fields if f.name in _BASE]
    return [
        ("Request", {"fields": own}),
        ("Stored record", {"fields": record, "classes": ["collapse"]}),
    ]


def order_url(order: OrderBase) -> str | None:
    opts = type(order)._meta
    try:
        return reverse(
            f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(order.pk)]
        )
    except NoReverseMatch:
        return None


def context(admin: Any, request: HttpRequest, order: OrderBase) -> dict[str, Any]:
    model = type(order)
    docs = load([order], thumb_width=240)[order.pk]
    retries = list(model.history.filter(retry_of=order).order_by("queued_at"))
    opts = model._meta
    no_retry = why_not(order, [card for card, _ in docs.inputs])
    return {
        "subtitle": f"{kind_of(model).name.capitalize()} order {order.pk}",
        "order": order,
        "kind": kind_of(model).name,
        "order_state": display.order_state(order),
        "order_badges": display.order_badges(order),
        "inputs": [(card, used.pages) for card, used in docs.inputs],
        "outputs": documents().with_parts(output_ids(order)),
        "retry_of": (order.retry_of, order_url(order.retry_of))
        if order.retry_of
        else None,
        "retries": [(r, order_url(r), display.order_badges(r)) for r in retries],
        "facts": _facts(order),
        "json_fields": [
            (f.verbose_name, json.dumps(getattr(order, f.attname), indent=2))
            for f in model._meta.concrete_fields
            if isinstance(f, models.JSONField)
        ],
        "can_retry": no_retry is None and admin.has_retry_permission(request),
        # Said on the page of a failed order, so the missing button is explained.
        "no_retry": no_retry
        if order.state == State.FAILED and order.deleted_at is None
        else None,
        "can_cancel": order.state == State.QUEUED
        and order.deleted_at is None
        and admin.has_cancel_permission(request),
        "retry_url": reverse(
            f"admin:{opts.app_label}_{opts.model_name}_retry", args=[quote(order.pk)]
        ),
        "cancel_url": reverse(
            f"admin:{opts.app_label}_{opts.model_name}_cancel", args=[quote(order.pk)]
        ),
    }


def _facts(order: OrderBase) -> list[tuple[str, str]]:
    owner = (
        order.owner.get_username() if order.owner_id and order.owner else display.DASH
    )
    return [
        ("queued at", display.when(order.queued_at)),
        ("started at", display.when(order.started_at)),
        ("ended at", display.when(order.processed_at)),
        ("waited", display.human_ms(None if order.is_cancelled else order.queued_ms)),
        ("ran", display.human_ms(order.processing_ms)),
        ("attempts", str(order.attempts)),
        (
            "pages in → out",
            f"{order.input_pages or display.DASH} → {order.page_count or display.DASH}",
        ),
        (
            "size in → out",
            f"{display.human_bytes(order.input_bytes)} → "
            f"{display.human_bytes(order.output_bytes)}",
        ),
        ("owner", owner),
        ("deleted at", display.when(order.deleted_at)),
    ]


def deletion_warning(admin: Any, order: OrderBase) -> list[Any]:
    """One line per order on the delete confirmation: what happens, what stays."""
    kind = kind_of(type(order)).name
    if order.deleted_at is not None:
        what = "it is deleted already; nothing changes"
    elif order.state == State.QUEUED:
        what = "it is cancelled: no worker will run it"
    elif order.state == State.PROCESSING:
        what = (
            "a worker is running it: it disappears now, and the result is discarded "
            "when the worker ends"
        )
    else:
        what = "it disappears from the API (404) and from these lists"
    made = [card for card in documents().with_parts(output_ids(order)) if card.exists]
    stays = [f"its report row stays in {kind}_order_report"]
    if made:
        names = ", ".join(f"{c.title} ({c.id})" for c in made)
        stays.append(
            f"the documents it made stay: {names} — delete them under Documents"
        )
    retries = list(
        type(order).history.filter(retry_of=order).values_list("pk", flat=True)
    )
    if retries:
        stays.append(f"its retries keep their link to it: {', '.join(retries)}")
    # The admin's unordered_list: the order, then what deleting it means.
    head = format_html(
        "{} order <code>{}</code> {}",
        kind.capitalize(),
        order.pk,
        display.order_badges(order),
    )
    return [head, [what, *stays]]
