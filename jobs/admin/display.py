"""How the admin shows values people read: sizes in KB/MB, durations, times with
seconds, ids short with a copy button, states as coloured badges."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from jobs.models import OrderBase

DASH = "—"


def human_bytes(size: int | None) -> str:
    """1536 → '1.5 KB' (powers of 1024, as file managers show them)."""
    if size is None:
        return DASH
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if value < 1024 or unit == "TB":
            if unit == "bytes":
                return f"{int(value)} bytes"
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
        value /= 1024
    return DASH  # not reached


def human_ms(ms: int | float | None) -> str:
    """Milliseconds as people read them: '85 ms', '1.3 s', '2 min 05 s'."""
    if ms is None:
        return DASH
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    minutes, seconds = divmod(int(ms // 1000), 60)
    return f"{minutes} min {seconds:02d} s"


def when(moment: datetime | None) -> str:
    """A timestamp with seconds, in the server's time zone: '2026-11-24 12:03:11'."""
    if moment is None:
        return DASH
    # The default zone, not the request's: no per-call lookup of the active zone
    # (a list page formats hundreds of times).
    return moment.astimezone(timezone.get_default_timezone()).strftime(
        "%Y-%m-%d %H:%M:%S"
    )


def short_id(value: str, length: int = 8) -> SafeString:
    """The id's first characters, the whole id on hover, and a button copying it."""
    shown = value if len(value) <= length + 1 else value[:length] + "…"
    whole = escape(value)
    return mark_safe(  # every value escaped (plain strings: hundreds per page)
        f'<span class="ts-id"><code title="{whole}">{escape(shown)}</code>'
        f'<button type="button" class="ts-copy" data-copy="{whole}" title="Copy the id"'
        ' aria-label="Copy the id">⧉</button></span>'
    )


STATE_CLASSES = {
    "QUEUED": "queued",
    "PROCESSING": "processing",
    "PROCESSED": "processed",
    "FAILED": "failed",
    "CANCELLED": "cancelled",
    "DELETED": "cancelled",
}


def badge(label: str, kind: str | None = None, title: str = "") -> SafeString:
    css = kind or STATE_CLASSES.get(label.upper(), "plain")
    return mark_safe(
        f'<span class="ts-badge ts-{escape(css)}" title="{escape(title)}">'
        f"{escape(label)}</span>"
    )


def order_state(order: OrderBase) -> str:
    """The state people are shown: CANCELLED for an order deleted before it
    ended (as the report views say), else its state."""
    return "CANCELLED" if order.is_cancelled else str(order.state)


def order_badges(order: OrderBase) -> SafeString:
    """The state badge of `order`, then "deleted" for an order deleted after it
    ended: the same words on every admin page that names the order."""
    shown = [badge(order_state(order))]
    if order.deleted_at is not None and not order.is_cancelled:
        shown.append(badge("deleted", "cancelled", f"deleted {when(order.deleted_at)}"))
    return mark_safe(" ".join(shown))


def badges(labels: list[str]) -> SafeString:
    return mark_safe(" ".join(badge(label, "op") for label in labels))


def truncate(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def middle(text: str, length: int) -> str:
    """`text` cut in its middle to `length` characters: the start and the end
    (a folder and a file name) both show."""
    if len(text) <= length:
        return text
    head = (length - 1) // 2
    return text[:head] + "…" + text[len(text) - (length - 1 - head) :]
