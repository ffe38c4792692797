"""Orders around a document, for its admin page: the orders that took it and the
order that made it (every registered kind of order)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.admin.utils import quote
from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString

from documents.models import Document
from jobs.admin import display
from jobs.admin.rows import output_fields
from jobs.models import OrderBase, OrderInput
from jobs.registry import kinds

USED_BY_SHOWN = 20


@dataclass(frozen=True)
class OrderLink:
    kind: str
    order: OrderBase
    url: str | None
    pages: int | None = None

    @property
    def badges(self) -> SafeString:
        """The order's state as every admin page shows it (CANCELLED, deleted)."""
        return display.order_badges(self.order)


@dataclass(frozen=True)
class KindUse:
    kind: str
    count: int
    list_url: str | None  # the kind's order list filtered on this document


def change_url(order: OrderBase) -> str | None:
    opts = type(order)._meta
    try:
        return reverse(
            f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(order.pk)]
        )
    except NoReverseMatch:
        return None


def _list_url(model: type[OrderBase], document_id: str) -> str | None:
    opts = model._meta
    try:
        base = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    except NoReverseMatch:
        return None
    return f"{base}?{urlencode({'input': document_id, 'deleted': 'all'})}"


def used_by(doc: Document) -> tuple[list[OrderLink], list[KindUse]]:
    """The latest orders that took `doc` (deleted ones too), and a count per kind."""
    models = {kind.name: kind.model for kind in kinds()}
    rows = list(
        OrderInput.objects.filter(document_id=doc.id).order_by("-queued_at")[
            :USED_BY_SHOWN
        ]
    )
    found: dict[str, OrderBase] = {}
    for name, model in models.items():
        ids = [r.order_id for r in rows if r.kind == name]
        if ids:
            found.update({o.pk: o for o in model.history.filter(pk__in=ids)})
    links = [
        OrderLink(r.kind, found[r.order_id], change_url(found[r.order_id]), r.pages)
        for r in rows
        if r.order_id in found
    ]
    uses = [
        KindUse(name, count, _list_url(model, doc.id))
        for name, model in models.items()
        if (count := OrderInput.objects.filter(kind=name, document_id=doc.id).count())
    ]
    return links, uses


def made_by(doc: Document) -> OrderLink | None:
    """The order whose result `doc` is (or is a part or rendition of)."""
    root = doc
    while root.parent_id or (
        root.rendition_of_id and root.origin == Document.Origin.RESULT
    ):
        parent = root.parent or root.rendition_of
        if parent is None:
            break
        root = parent
    for kind in kinds():
        fields = output_fields(kind.model)
        if not fields:
            continue
        match = Q()
        for name in fields:
            match |= Q(**{name: root.id})
        order = kind.model.history.filter(match).first()
        if order is not None:
            return OrderLink(kind.name, order, change_url(order))
    return None


def makers(docs: list[Document]) -> dict[str, OrderLink]:
    """The order that made each result in `docs` (parts: their container's), in
    one query per kind of order."""
    roots = {
        d.id: d.parent_id or d.rendition_of_id or d.id
        for d in docs
        if d.origin == Document.Origin.RESULT
    }
    found: dict[str, OrderLink] = {}
    wanted = set(roots.values())
    for kind in kinds():
        for name in output_fields(kind.model):
            for order in kind.model.history.filter(**{f"{name}__in": wanted}):
                link = OrderLink(kind.name, order, change_url(order))
                found[getattr(order, name)] = link
    return {doc_id: found[root] for doc_id, root in roots.items() if root in found}
