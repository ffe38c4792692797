"""The kinds of order the service knows, each registered by its own app.

An order app registers its (model, task) pair in `AppConfig.ready()`; the shared
machinery (recovery, queue capacity, metrics...) walks this registry instead of
naming the apps, so adding a kind of order needs no edit here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rest_framework.serializers import BaseSerializer

from jobs.models import OrderBase


@dataclass(frozen=True, slots=True)
class OrderKind:
    """`name` is the kind's short name ("transformation"); `task` is the dotted path
    of its django-q2 entry point, called with the order id. `on_failed(order_id,
    message)`, when given, is called after the machinery failed one of its orders
    (its build raised, it timed out, or its worker died too often) or after one
    was deleted before it ended, for what the kind must undo or record besides the
    order itself. `recover()`, when given, runs with the recovery of stale orders
    (every heartbeat, on every worker) for what else the kind must repair; it
    returns how many things it repaired. `serializer`, when given, is the one its
    GET answers with: what others send of the order (webhooks). `queues(orders)`,
    when given, names the queue (jobs.queues) each of `orders` of the kind is
    sent to, in their order (one call for many: the metrics and the sweeper ask
    about every waiting order); "main" otherwise. `delete_results(order)`, when
    given, deletes the documents the order made (`DELETE ...?deleteResults=true`)
    and answers how many it deleted."""

    name: str
    model: type[OrderBase]
    task: str
    on_failed: Callable[[str, str], None] | None = None
    serializer: type[BaseSerializer[Any]] | None = None
    recover: Callable[[], int] | None = None
    delete_results: Callable[[Any], int] | None = None
    queues: Callable[[Sequence[Any]], list[str]] | None = None

    def queue_of(self, order: OrderBase) -> str:
        return self.queues_of([order])[0]

    def queues_of(self, orders: Sequence[OrderBase]) -> list[str]:
        if self.queues is None or not orders:
            return ["main"] * len(orders)
        return self.queues(orders)


_kinds: dict[str, OrderKind] = {}


def register(kind: OrderKind) -> None:
    """Add `kind`; registering the same kind again (a reloaded app) replaces it."""
    for other in _kinds.values():
        if other.model is kind.model and other.name != kind.name:
            raise ValueError(f"{kind.model.__name__} is registered as {other.name!r}")
    _kinds[kind.name] = kind


def unregister(name: str) -> None:
    _kinds.pop(name, None)


def kinds() -> tuple[OrderKind, ...]:
    return tuple(_kinds.values())


def kind_of(model: type[OrderBase]) -> OrderKind:
    kind = find(model)
    if kind is None:
        raise LookupError(f"{model.__name__} is not a registered kind of order")
    return kind


def named(name: str) -> OrderKind | None:
    return _kinds.get(name)


def find(model: type[OrderBase]) -> OrderKind | None:
    for kind in _kinds.values():
        if kind.model is model:
            return kind
    return None
