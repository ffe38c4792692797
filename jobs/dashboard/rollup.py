"""Day summaries of orders, one per kind of order and closed day (DaySummary).

A day is summarised from the report index on queued_at (a few thousand rows a
day even at a million orders) and stored an hour after it ends, when its orders
have ended; the day still open, and the hour after midnight, are summarised live.
So the dashboard reads one row per day of its window and a day of orders at most.

Times are kept as histograms of log-spaced buckets (BUCKETS_PER_E per factor e,
about 5 % wide), which add up across days; percentiles read from them are within
a bucket of the exact ones (the README's SQL gives exact ones).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import connection
from django.db.models import Case, CharField, Count, F, QuerySet, Sum, Value, When
from django.db.models.functions import TruncDay
from django.utils import timezone

from jobs.models import DaySummary, OrderBase
from jobs.registry import OrderKind
from jobs.states import State

BUCKETS_PER_E = 20
SETTLED_AFTER = timedelta(hours=1)
SUMS = ("pages_in", "pages_out", "bytes_in", "bytes_out")


def bucket(ms: float) -> int:
    return int(math.log1p(max(ms, 0.0)) * BUCKETS_PER_E)


def percentile(histogram: dict[str, int], q: float) -> float | None:
    """The `q` quantile (0..1) in ms of a histogram {bucket: count}."""
    total = sum(histogram.values())
    if not total:
        return None
    rank = q * (total - 1)
    seen = 0
    for key in sorted(histogram, key=int):
        count = histogram[key]
        if seen + count > rank:
            within = (rank - seen + 0.5) / count
            return math.expm1((int(key) + within) / BUCKETS_PER_E)
        seen += count
    return math.expm1((int(max(histogram, key=int)) + 1) / BUCKETS_PER_E)


def empty() -> dict[str, Any]:
    return {
        "counts": {},
        **{name: 0 for name in SUMS},
        "errors": {},
        "owners": {},
        "queued_ms": {},
        "processing_ms": {},
    }


def report_state() -> Case:
    """The state reports use: CANCELLED for orders deleted before they ended."""
    return Case(
        When(
            deleted_at__isnull=False, processed_at__isnull=True, then=Value("CANCELLED")
        ),
        default=F("state"),
        output_field=CharField(),
    )


def _has_format(model: type[OrderBase]) -> bool:
    return any(f.name == "format" for f in model._meta.concrete_fields)


def _day(value: datetime | date) -> date:
    return value.date() if isinstance(value, datetime) else value


def summarise(
    kind: OrderKind, start: datetime, end: datetime
) -> dict[date, dict[str, Any]]:
    """Summaries of the orders of `kind` queued in [start, end), by UTC day."""
    days: dict[date, dict[str, Any]] = defaultdict(empty)
    window = kind.model.history.filter(queued_at__gte=start, queued_at__lt=end)
    by_day = window.annotate(day=TruncDay("queued_at")).order_by()
    states: Any = (
        by_day.annotate(st=report_state())
        .values("day", "st")
        .annotate(
            n=Count("*"),
            pages_in=Sum("input_pages"),
            pages_out=Sum("page_count"),
            bytes_in=Sum("input_bytes"),
            bytes_out=Sum("output_bytes"),
        )
    )
    for row in states:
        day = days[_day(row["day"])]
        day["counts"][row["st"]] = row["n"]
        if row["st"] == State.PROCESSED:
            for name in SUMS:
                day[name] += row[name] or 0
    failures: Any = (
        by_day.filter(state=State.FAILED)
        .values("day", "error_category")
        .annotate(n=Count("*"))
    )
    for row in failures:
        days[_day(row["day"])]["errors"][row["error_category"] or "other"] = row["n"]
    owners: Any = by_day.values("day", "owner").annotate(
        n=Count("*"), p=Sum("input_pages")
    )
    for row in owners:
        days[_day(row["day"])]["owners"][str(row["owner"] or "")] = [
            row["n"],
            row["p"] or 0,
        ]
    _histograms(kind.model, window, (start, end), days)
    return dict(days)


def _histograms(
    model: type[OrderBase],
    window: QuerySet[Any],
    bounds: tuple[datetime, datetime],
    days: dict[date, dict[str, Any]],
) -> None:
    ended = window.filter(started_at__isnull=False, processed_at__isnull=False)
    fmt = "format" if _has_format(model) else None
    if connection.vendor == "postgresql":
        group = f"o.{fmt}" if fmt else "''"
        with connection.cursor() as cursor:
            for name, start, stop in (
                ("queued_ms", "queued_at", "started_at"),
                ("processing_ms", "started_at", "processed_at"),
            ):
                # date_part is float8 (EXTRACT is numeric, several times slower).
                cursor.execute(
                    f"SELECT date_trunc('day', o.queued_at AT TIME ZONE 'UTC'), {group}, "
                    f"floor(ln(1 + greatest(0, date_part('epoch', o.{stop} - o.{start}) "
                    f"* 1000)) * {BUCKETS_PER_E})::int, count(*) "
                    f"FROM {model._meta.db_table} o "
                    "WHERE o.queued_at >= %s AND o.queued_at < %s "
                    "AND o.started_at IS NOT NULL AND o.processed_at IS NOT NULL "
                    "GROUP BY 1, 2, 3",
                    list(bounds),
                )
                for day, group_value, key, count in cursor.fetchall():
                    found = days[_day(day)][name].setdefault(group_value or "", {})
                    found[str(key)] = count
        return
    fields = ["queued_at", "started_at", "processed_at", *([fmt] if fmt else [])]
    for row in ended.values(*fields):  # SQLite (a local `make run`): few rows
        day = days[timezone.localtime(row["queued_at"], UTC).date()]
        group_value = row.get("format", "") if fmt else ""
        for name, start, stop in (
            ("queued_ms", "queued_at", "started_at"),
            ("processing_ms", "started_at", "processed_at"),
        ):
            ms = (row[stop] - row[start]).total_seconds() * 1000
            found = day[name].setdefault(group_value, {})
            found[str(bucket(ms))] = found.get(str(bucket(ms)), 0) + 1


def days_of(kind: OrderKind, first: date, last: date) -> dict[date, dict[str, Any]]:
    """Summaries of every day from `first` to `last` (inclusive): stored ones read,
    settled ones missing made and stored (in one pass), open ones made live."""
    now = timezone.now()
    settled_until = (now - SETTLED_AFTER).date()  # days before this one are settled
    stored = {
        row.day: row.data
        for row in DaySummary.objects.filter(kind=kind.name, day__range=(first, last))
    }
    wanted = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    missing = [d for d in wanted if d not in stored and d < settled_until]
    if missing:
        made = summarise(
            kind, _midnight(min(missing)), _midnight(max(missing) + timedelta(1))
        )
        DaySummary.objects.bulk_create(
            [
                DaySummary(kind=kind.name, day=d, data=made.get(d, empty()))
                for d in missing
            ],
            ignore_conflicts=True,
        )
        stored.update({d: made.get(d, empty()) for d in missing})
    open_days = [d for d in wanted if d >= settled_until]
    if open_days:
        stored.update(
            summarise(kind, _midnight(open_days[0]), _midnight(last + timedelta(1)))
        )
    return {d: stored.get(d, empty()) for d in wanted}


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def merge(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """The sum of day summaries (counts, sums, histograms)."""
    total = empty()
    counts: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for summary in summaries:
        counts.update(summary["counts"])
        errors.update(summary["errors"])
        for name in SUMS:
            total[name] += summary[name]
        for owner, (n, pages) in summary["owners"].items():
            seen = total["owners"].setdefault(owner, [0, 0])
            seen[0] += n
            seen[1] += pages
        for name in ("queued_ms", "processing_ms"):
            for group, histogram in summary[name].items():
                into = total[name].setdefault(group, {})
                for key, n in histogram.items():
                    into[key] = into.get(key, 0) + n
    total["counts"], total["errors"] = dict(counts), dict(errors)
    return total
