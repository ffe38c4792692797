"""Small SVG charts drawn on the server: no JavaScript, no CDN. Each function
returns markup ready for a template (labels escaped)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 520  # viewBox width of a half-page chart; a page-wide one passes its own
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 48, 8, 10, 24
AXIS = "#9ca3af"
GRID = "#eef0f3"
TEXT = "#4b5563"


@dataclass(frozen=True)
class Series:
    label: str
    color: str
    values: Sequence[float]


def nice_max(value: float) -> float:
    """A round axis maximum at or above `value` (1, 2, 2.5, 5 × 10^n)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _number(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:g}"


def _frame(
    width: int,
    height: int,
    top: float,
    labels: Sequence[str],
    fmt: Callable[[float], str],
) -> list[str]:
    """Grid lines with y labels, and every few x labels."""
    plot_h = height - PLOT_TOP - PLOT_BOTTOM
    plot_w = width - PLOT_LEFT - PLOT_RIGHT
    parts = []
    for i in range(5):
        value = top * i / 4
        y = PLOT_TOP + plot_h - plot_h * i / 4
        parts.append(
            f'<line x1="{PLOT_LEFT}" x2="{width - PLOT_RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{GRID if i else AXIS}"/>'
            f'<text x="{PLOT_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="{TEXT}">{escape(fmt(value))}</text>'
        )
    if labels:
        every = max(1, math.ceil(len(labels) / 10))
        slot = plot_w / len(labels)
        for i, label in enumerate(labels):
            if i % every == 0:
                x = PLOT_LEFT + slot * (i + 0.5)
                parts.append(
                    f'<text x="{x:.1f}" y="{height - 6}" text-anchor="middle" font-size="11" '
                    f'fill="{TEXT}">{escape(label)}</text>'
                )
    return parts


def _svg(width: int, height: int, parts: list[str], title: str) -> SafeString:
    return mark_safe(  # every label above is escaped
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif">'
        + "".join(parts)
        + "</svg>"
    )


def stacked_bars(
    labels: Sequence[str],
    series: Sequence[Series],
    *,
    title: str,
    height: int = 220,
    width: int = WIDTH,
    fmt: Callable[[float], str] = _number,
) -> SafeString:
    """One bar per label, the series stacked in order (bottom first)."""
    totals = [sum(s.values[i] for s in series) for i in range(len(labels))]
    top = nice_max(max(totals, default=0))
    plot_h = height - PLOT_TOP - PLOT_BOTTOM
    slot = (width - PLOT_LEFT - PLOT_RIGHT) / max(1, len(labels))
    bar = max(1.0, slot * 0.72)
    parts = _frame(width, height, top, labels, fmt)
    for i, label in enumerate(labels):
        y: float = PLOT_TOP + plot_h
        x = PLOT_LEFT + slot * i + (slot - bar) / 2
        for s in series:
            value = s.values[i]
            if not value:
                continue
            h = plot_h * value / top
            y -= h
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                f'fill="{s.color}"><title>{escape(label)}: {escape(fmt(value))} '
                f"{escape(s.label)}</title></rect>"
            )
    return _svg(width, height, parts, title)


def line(
    labels: Sequence[str],
    values: Sequence[float | None],
    *,
    title: str,
    color: str = "#dc2626",
    height: int = 200,
    width: int = WIDTH,
    fmt: Callable[[float], str] = _number,
    top: float | None = None,
) -> SafeString:
    """A line through the values (gaps where a value is None), dots on each."""
    known = [v for v in values if v is not None]
    ceiling: float = top or nice_max(max(known, default=0))
    plot_h = height - PLOT_TOP - PLOT_BOTTOM
    slot = (width - PLOT_LEFT - PLOT_RIGHT) / max(1, len(labels))
    parts = _frame(width, height, ceiling, labels, fmt)
    points: list[str] = []
    for i, value in enumerate(values):
        if value is None:
            if len(points) > 1:
                parts.append(_polyline(points, color))
            points = []
            continue
        x = PLOT_LEFT + slot * (i + 0.5)
        y = PLOT_TOP + plot_h - plot_h * min(value, ceiling) / ceiling
        points.append(f"{x:.1f},{y:.1f}")
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{color}">'
            f"<title>{escape(labels[i])}: {escape(fmt(value))}</title></circle>"
        )
    if len(points) > 1:
        parts.append(_polyline(points, color))
    return _svg(width, height, parts, title)


def _polyline(points: list[str], color: str) -> str:
    return (
        f'<polyline points="{" ".join(points)}" fill="none" stroke="{color}" '
        'stroke-width="2"/>'
    )


# Width of one character of the charts' 12-unit labels, generously (sans-serif
# averages about 6.2 units; capitals and "m" are wider).
CHAR_WIDTH = 6.8


def _fit(label: str, room: float) -> str:
    """`label` as it fits `room` units, shortened with "…" only when it cannot."""
    most = max(4, int(room / CHAR_WIDTH))
    return label if len(label) <= most else label[: most - 1] + "…"


def hbars(
    rows: Sequence[tuple[str, float, str]],
    *,
    title: str,
    color: str = "#6366f1",
    width: int = WIDTH,
) -> SafeString:
    """One horizontal bar per (label, value, shown text), longest first as given.
    The labels get the room their longest needs (up to 45 % of the width: 32
    characters at the dashboard's width; a longer one ends with "…"), and
    the shown texts theirs, so that nothing is drawn outside the chart."""
    row_h = 24
    height = max(row_h, row_h * len(rows)) + 4
    top = max((v for _, v, _ in rows), default=0) or 1
    longest = max((len(label) for label, _, _ in rows), default=0)
    label_width = min(width * 0.45, longest * CHAR_WIDTH + 14)
    text_width = max((len(text) for _, _, text in rows), default=0) * CHAR_WIDTH + 10
    room = max(20.0, width - label_width - text_width)
    parts = []
    for i, (label, value, text) in enumerate(rows):
        y = 2 + i * row_h
        w = max(1.0, room * value / top)
        parts.append(
            f'<text x="{label_width - 8:.1f}" y="{y + 16}" text-anchor="end" '
            f'font-size="12" fill="{TEXT}">{escape(_fit(label, label_width - 10))}</text>'
            f'<rect x="{label_width:.1f}" y="{y + 4}" width="{w:.1f}" height="{row_h - 8}" '
            f'rx="2" fill="{color}"><title>{escape(label)}: {escape(text)}</title></rect>'
            f'<text x="{label_width + w + 6:.1f}" y="{y + 16}" font-size="12" '
            f'fill="{TEXT}">{escape(text)}</text>'
        )
    if not rows:
        parts.append(
            f'<text x="8" y="16" font-size="12" fill="{TEXT}">nothing yet</text>'
        )
    return _svg(width, height, parts, title)
