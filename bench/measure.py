"""Rows of the benchmark table, their goals, and interleaved timing."""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Goal:
    """`on` is "ratio" (service / baseline) or "service" (the service's own figure)."""

    on: str
    op: str
    limit: float

    def text(self, unit: str) -> str:
        sign = {"<": "<", "<=": "≤", ">=": "≥"}[self.op]
        if self.on == "ratio":
            return f"ratio {sign} {self.limit:.3g}"
        return f"{sign} {self.limit:g} {unit}"

    def met(self, value: float) -> bool:
        return {
            "<": value < self.limit,
            "<=": value <= self.limit,
            ">=": value >= self.limit,
        }[self.op]


# Scenarios 1-6 of the benchmark's brief: the service within 1.5 times its baseline.
CLOSE_TO_ENGINE = Goal("ratio", "<=", 1.5)


@dataclass
class Row:
    """One line of the table: medians of the service and of its baseline."""

    number: str
    scenario: str
    unit: str
    service: float | None
    baseline: float | None
    goal: Goal | None
    runs: int
    baseline_label: str = ""
    notes: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.service is None or not self.baseline:
            return None
        return self.service / self.baseline

    @property
    def passed(self) -> bool | None:
        if self.goal is None or self.service is None:
            return None
        value = self.ratio if self.goal.on == "ratio" else self.service
        return None if value is None else self.goal.met(value)

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "scenario": self.scenario,
            "unit": self.unit,
            "service_median": _round(self.service),
            "baseline_median": _round(self.baseline),
            "baseline": self.baseline_label,
            "ratio": _round(self.ratio),
            "goal": self.goal.text(self.unit) if self.goal else None,
            "pass": self.passed,
            "runs": self.runs,
            "skipped": self.skipped,
            "notes": self.notes,
        }


def _round(value: float | None) -> float | None:
    if value is None:
        return None
    return round(value, 4 - int(math.floor(math.log10(abs(value)))) if value else 0)


def skipped(
    number: str, scenario: str, unit: str, goal: Goal | None, reason: str
) -> Row:
    return Row(number, scenario, unit, None, None, goal, 0, skipped=reason)


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def order_breakdown(orders: list[dict[str, Any]]) -> dict[str, float]:
    """Medians of where an order's time went: the service's own queuedTime and
    processingTime (ms) and the client's post, wait and download (s)."""
    out = {
        "queued_ms": median([float(o["queuedTime"]) for o in orders]),
        "processing_ms": median([float(o["processingTime"]) for o in orders]),
    }
    for part in ("post", "wait", "download"):
        out[f"{part}_s"] = round(median([o["clientSeconds"][part] for o in orders]), 4)
    return out


def concurrently(client: Callable[[int], object], count: int) -> float:
    """Seconds for `count` threads running `client(n)` (n = 0..count-1) to end."""
    threads = [threading.Thread(target=client, args=(n,)) for n in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(
    service: Callable[[], object],
    baseline: Callable[[], object],
    runs: int,
    warmup: int = 1,
) -> tuple[list[float], list[float]]:
    """Seconds of each run, service and baseline alternating, so a busy neighbour on
    the machine slows both alike; `warmup` untimed rounds first (caches, imports)."""
    for _ in range(warmup):
        service()
        baseline()
    service_s: list[float] = []
    baseline_s: list[float] = []
    for _ in range(runs):
        service_s.append(timed(service))
        baseline_s.append(timed(baseline))
    return service_s, baseline_s


def _cell(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if value >= 0.01 else f"{value:.2g}"


def table(rows: list[Row]) -> str:
    """The rows as a plain-text table (what `make bench` prints)."""
    header = ("#", "scenario", "unit", "service", "baseline", "ratio", "goal", "result")
    lines = [header]
    for row in rows:
        result = {True: "pass", False: "FAIL", None: "-"}[row.passed]
        if row.skipped:
            result = "skipped"
        lines.append(
            (
                row.number,
                row.scenario,
                row.unit,
                _cell(row.service),
                _cell(row.baseline),
                _cell(row.ratio),
                row.goal.text(row.unit) if row.goal else "-",
                result,
            )
        )
    widths = [max(len(line[n]) for line in lines) for n in range(len(header))]
    right = {3, 4, 5}
    out = []
    for k, line in enumerate(lines):
        cells = [
            c.rjust(widths[n]) if n in right else c.ljust(widths[n])
            for n, c in enumerate(line)
        ]
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
