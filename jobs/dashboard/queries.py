"""The dashboard's numbers for a window of days, every registered kind of order
together, read from day summaries (rollup.py): one stored row per closed day and
kind, the open day summarised live from the report index. Refusals and the
"right now" counts are small indexed queries of their own."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.utils import timezone

from jobs.dashboard import rollup
from jobs.models import OrderRefusal, WorkerHeartbeat
from jobs.registry import kinds
from jobs.states import State

STATES = ("PROCESSED", "FAILED", "CANCELLED", "PROCESSING", "QUEUED")
NO_OWNER = "(no owner: auth off)"


@dataclass(frozen=True)
class Times:
    kind: str
    format: str
    ended: int
    queued_p50: float | None
    queued_p95: float | None
    processing_p50: float | None
    processing_p95: float | None


@dataclass
class Window:
    """Day summaries of a window: `days` in order, `per_day` (every kind merged,
    one per day), `by_kind` (each kind over the whole window)."""

    days: list[date]
    per_day: list[dict[str, Any]] = field(default_factory=list)
    by_kind: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def total(self) -> dict[str, Any]:
        return rollup.merge(list(self.by_kind.values()))


def window(first: date, last: date) -> Window:
    found = Window(
        days=[first + timedelta(days=n) for n in range((last - first).days + 1)]
    )
    per_kind = {kind.name: rollup.days_of(kind, first, last) for kind in kinds()}
    found.per_day = [
        rollup.merge([summaries[day] for summaries in per_kind.values()])
        for day in found.days
    ]
    found.by_kind = {
        name: rollup.merge(list(summaries.values()))
        for name, summaries in per_kind.items()
    }
    return found


def times(win: Window) -> list[Times]:
    """p50/p95 of queued and processing time (ms) of the orders that ended, by kind
    and (for kinds that have one) format, busiest first."""
    found = []
    for kind, summary in win.by_kind.items():
        for fmt, queued in summary["queued_ms"].items():
            processing = summary["processing_ms"].get(fmt, {})
            found.append(
                Times(
                    kind,
                    fmt,
                    sum(queued.values()),
                    rollup.percentile(queued, 0.5),
                    rollup.percentile(queued, 0.95),
                    rollup.percentile(processing, 0.5),
                    rollup.percentile(processing, 0.95),
                )
            )
    return sorted(found, key=lambda t: -t.ended)


def error_categories(win: Window, limit: int = 8) -> list[tuple[str, int]]:
    return Counter(win.total["errors"]).most_common(limit)


def busiest_owners(win: Window, limit: int = 8) -> list[tuple[str, int, int]]:
    """(owner name, orders, pages taken) of the owners with most orders."""
    owners = win.total["owners"]
    top = sorted(owners.items(), key=lambda item: -item[1][0])[:limit]
    ids = [int(owner) for owner, _ in top if owner]
    names = dict(
        get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    )
    return [
        (names.get(int(owner), owner) if owner else NO_OWNER, n, pages)
        for owner, (n, pages) in top
    ]


def refusals(since: datetime) -> list[tuple[str, int]]:
    rows = (
        OrderRefusal.objects.filter(refused_at__gte=since)
        .values("reason")
        .annotate(n=Count("*"))
        .order_by("-n")
    )
    return [(row["reason"], row["n"]) for row in rows]


def right_now() -> dict[str, int]:
    """Orders waiting and running now (index on state), workers seen lately,
    failures of the last 24 hours (index on processed_at)."""
    now = timezone.now()
    return {
        "queued": sum(
            k.model.objects.filter(state=State.QUEUED).count() for k in kinds()
        ),
        "processing": sum(
            k.model.objects.filter(state=State.PROCESSING).count() for k in kinds()
        ),
        "workers": WorkerHeartbeat.objects.filter(
            seen_at__gte=now - timedelta(seconds=60)
        ).count(),
        "failed_24h": sum(
            k.model.history.filter(
                processed_at__gte=now - timedelta(days=1), state=State.FAILED
            ).count()
            for k in kinds()
        ),
    }
