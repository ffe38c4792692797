"""The dashboard's numbers: day summaries stored once a day has settled, today
live, percentiles from histograms within a bucket of the exact ones."""

from __future__ import annotations

import statistics
from datetime import timedelta

from django.utils import timezone

from jobs.dashboard import queries, rollup
from jobs.models import DaySummary
from orders.models import TransformationOrder


def make(
    n: int, days_ago: int, ms: float, state: str = "PROCESSED", **extra: object
) -> None:
    queued = timezone.now().replace(hour=12) - timedelta(days=days_ago)
    TransformationOrder.objects.create(
        id=f"o-{days_ago}-{n}-{state}",
        format="pdf",
        request={},
        state=state,
        queued_at=queued,
        started_at=queued + timedelta(milliseconds=10),
        processed_at=queued + timedelta(milliseconds=10 + ms),
        input_pages=2,
        page_count=1 if state == "PROCESSED" else None,
        **extra,
    )


def test_closed_days_are_summarised_once_and_today_live() -> None:
    for n in range(30):
        make(n, 2, ms=100 + 10 * n)
    make(
        0, 2, ms=5, state="FAILED", error_category="timeout", error_message="timed out"
    )
    make(0, 0, ms=50)
    today = timezone.now().date()
    win = queries.window(today - timedelta(days=3), today)
    assert [day["counts"] for day in win.per_day] == [
        {},
        {"PROCESSED": 30, "FAILED": 1},
        {},
        {"PROCESSED": 1},
    ]
    assert win.per_day[1]["pages_out"] == 30 and win.per_day[1]["pages_in"] == 60
    stored = set(DaySummary.objects.values_list("day", flat=True))
    assert today not in stored and today - timedelta(days=2) in stored

    # A stored day is read, not recomputed: an order added to it later is not seen.
    make(99, 2, ms=1)
    again = queries.window(today - timedelta(days=3), today)
    assert again.per_day[1]["counts"] == {"PROCESSED": 30, "FAILED": 1}
    assert queries.error_categories(again) == [("timeout", 1)]
    assert queries.busiest_owners(again)[0][1] == 32  # no owner: auth is off


def test_percentiles_from_histograms_are_within_a_bucket_of_the_exact_ones() -> None:
    values = [float(v) for v in range(1, 2001)]
    histogram: dict[str, int] = {}
    for value in values:
        key = str(rollup.bucket(value))
        histogram[key] = histogram.get(key, 0) + 1
    exact = statistics.quantiles(values, n=100)
    assert abs(rollup.percentile(histogram, 0.5) - exact[49]) / exact[49] < 0.06  # type: ignore[operator]
    assert abs(rollup.percentile(histogram, 0.95) - exact[94]) / exact[94] < 0.06  # type: ignore[operator]
    assert rollup.percentile({}, 0.5) is None
