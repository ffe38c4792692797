"""The dashboard page (staff only, inside the admin's frame)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from jobs.admin.display import human_bytes, human_ms
from jobs.dashboard import charts, queries
from jobs.errors import Category
from jobs.refusals import Reason
from jobs.registry import kinds

WINDOWS = (1, 7, 30, 90)
DEFAULT_DAYS = 30
COLORS = {
    "PROCESSED": "#22c55e",
    "FAILED": "#ef4444",
    "CANCELLED": "#9ca3af",
    "PROCESSING": "#f59e0b",
    "QUEUED": "#6366f1",
}


def _days(request: HttpRequest) -> int:
    try:
        days = int(request.GET.get("days", DEFAULT_DAYS))
    except ValueError:
        return DEFAULT_DAYS
    return days if days in WINDOWS else DEFAULT_DAYS


def _since(days: int) -> datetime:
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    return today - timedelta(days=days - 1)


def _order_lists() -> list[tuple[str, str]]:
    found = []
    for kind in kinds():
        opts = kind.model._meta
        try:
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        except NoReverseMatch:
            continue
        found.append((str(opts.verbose_name_plural), url))
    return found


def _per_day_charts(win: queries.Window) -> dict[str, Any]:
    labels = [d.strftime("%m-%d") for d in win.days]
    rows = win.per_day
    series = [
        charts.Series(
            state.lower(), COLORS[state], [r["counts"].get(state, 0) for r in rows]
        )
        for state in queries.STATES
    ]
    rates = []
    for r in rows:
        failed_day = r["counts"].get("FAILED", 0)
        ended = r["counts"].get("PROCESSED", 0) + failed_day
        rates.append(100 * failed_day / ended if ended else None)
    total = sum(sum(r["counts"].values()) for r in rows)
    processed = sum(r["counts"].get("PROCESSED", 0) for r in rows)
    failed = sum(r["counts"].get("FAILED", 0) for r in rows)
    return {
        "orders_chart": charts.stacked_bars(
            labels, series, title="orders per day", width=1100, height=240
        ),
        "legend": [(s.label, s.color) for s in series],
        "failure_chart": charts.line(
            labels,
            rates,
            title="failure rate",
            fmt=lambda v: f"{v:.0f}%",
            top=max(5.0, charts.nice_max(max((x for x in rates if x), default=0))),
        ),
        "pages_chart": charts.stacked_bars(
            labels,
            [charts.Series("pages out", "#0ea5e9", [r["pages_out"] for r in rows])],
            title="pages produced per day",
            height=180,
        ),
        "bytes_chart": charts.stacked_bars(
            labels,
            [charts.Series("bytes out", "#14b8a6", [r["bytes_out"] for r in rows])],
            title="bytes produced per day",
            height=180,
            fmt=lambda v: human_bytes(int(v)) if v else "0",
        ),
        "totals": [
            ("orders", f"{total:,}"),
            ("processed", f"{processed:,}"),
            ("failed", f"{failed:,}"),
            (
                "failure rate",
                f"{100 * failed / (processed + failed):.1f}%"
                if processed + failed
                else "—",
            ),
            (
                "pages in → out",
                f"{sum(r['pages_in'] for r in rows):,} → {sum(r['pages_out'] for r in rows):,}",
            ),
            (
                "bytes in → out",
                f"{human_bytes(sum(r['bytes_in'] for r in rows))} → "
                f"{human_bytes(sum(r['bytes_out'] for r in rows))}",
            ),
        ],
    }


def _times_rows(win: queries.Window) -> list[dict[str, Any]]:
    found = queries.times(win)
    top = max((t.processing_p95 or 0 for t in found), default=0) or 1
    return [
        {
            "kind": t.kind,
            "format": t.format or "—",
            "ended": f"{t.ended:,}",
            "queued": f"{human_ms(t.queued_p50)} / {human_ms(t.queued_p95)}",
            "processing": f"{human_ms(t.processing_p50)} / {human_ms(t.processing_p95)}",
            "bar": int(100 * (t.processing_p95 or 0) / top),
        }
        for t in found
    ]


def dashboard(request: HttpRequest) -> HttpResponse:
    days = _days(request)
    since = _since(days)
    win = queries.window(since.date(), timezone.now().date())
    labels = dict(Category.choices)
    reasons = dict(Reason.choices)
    context = {
        **admin.site.each_context(request),
        "title": "Dashboard",
        "days": days,
        "windows": WINDOWS,
        "since": since,
        "now": queries.right_now(),
        "order_lists": _order_lists(),
        **_per_day_charts(win),
        "times": _times_rows(win),
        "errors_chart": charts.hbars(
            [(labels.get(c, c), n, f"{n:,}") for c, n in queries.error_categories(win)],
            title="failures by category",
            color="#ef4444",
        ),
        "owners_chart": charts.hbars(
            [
                (name, n, f"{n:,} orders, {p:,} pages")
                for name, n, p in queries.busiest_owners(win)
            ],
            title="busiest owners",
        ),
        "refusals_chart": charts.hbars(
            [(reasons.get(r, r), n, f"{n:,}") for r, n in queries.refusals(since)],
            title="refused requests by reason",
            color="#f59e0b",
        ),
    }
    return render(request, "jobs/admin/dashboard.html", context)
