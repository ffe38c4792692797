"""SQL pieces for the reporting views (migrations use them; keep them stable)."""

from __future__ import annotations


def duration_ms_sql(vendor: str, end: str, start: str) -> str:
    """An SQL expression: milliseconds from column `start` to column `end`."""
    if vendor == "postgresql":
        return f"FLOOR(EXTRACT(EPOCH FROM ({end} - {start})) * 1000)::bigint"
    return f"CAST((julianday({end}) - julianday({start})) * 86400000 AS INTEGER)"
