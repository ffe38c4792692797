"""SQL reporting views: the columns every kind of order reports, and how a kind's
migration creates its `<kind>_order_report` view.

A kind of order adds its view in a migration of its own app (conversions do the
same for `conversion_order_report`)::

    from jobs.reporting import Column, create_order_report, drop_view

    EXTRA = [Column("source_format", "o.source_format", "format converted from")]

    def create(apps, schema_editor):
        create_order_report(
            schema_editor, "conversion_order_report",
            "conversions_conversionorder", "conversion", EXTRA,
        )

    def drop(apps, schema_editor):
        drop_view(schema_editor, "conversion_order_report")

    operations = [migrations.RunPython(create, drop)]

The SQL is built here, when the migration runs: a later change to the columns
takes a new migration that drops and creates the view again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings


def duration_ms_sql(vendor: str, end: str, start: str) -> str:
    """An SQL expression: milliseconds from column `start` to column `end`."""
    if vendor == "postgresql":
        return f"FLOOR(EXTRACT(EPOCH FROM ({end} - {start})) * 1000)::bigint"
    return f"CAST((julianday({end}) - julianday({start})) * 86400000 AS INTEGER)"


@dataclass(frozen=True)
class Column:
    """A column of a report view: its name, its SQL over the table aliased `o`
    (and `u`, the owner), and the comment analysts read (`COMMENT ON COLUMN`)."""

    name: str
    sql: str
    comment: str


def order_columns(vendor: str, kind: str) -> list[Column]:
    """The columns every `<kind>_order_report` view starts with."""

    def ms(end: str, start: str) -> str:
        return duration_ms_sql(vendor, end, start)

    return [
        Column("order_id", "o.id", "the order's id, as the API shows it"),
        Column("kind", f"'{kind}'", "the kind of order"),
        Column(
            "state",
            "CASE WHEN o.deleted_at IS NOT NULL AND o.processed_at IS NULL "
            "THEN 'CANCELLED' ELSE o.state END",
            "QUEUED, PROCESSING, PROCESSED or FAILED; CANCELLED when the order "
            "was deleted before it ended",
        ),
        Column("queued_at", "o.queued_at", "when the order was accepted"),
        Column("started_at", "o.started_at", "when a worker picked it up"),
        Column("processed_at", "o.processed_at", "when it ended (null until then)"),
        Column(
            "queued_ms",
            ms("o.started_at", "o.queued_at"),
            "milliseconds from queued to picked up by a worker",
        ),
        Column(
            "processing_ms",
            ms("o.processed_at", "o.started_at"),
            "milliseconds from picked up to ended",
        ),
        Column("attempts", "o.attempts", "how many times a worker started it"),
        Column(
            "input_pages",
            "o.input_pages",
            "pages taken from the input documents (a page taken twice counts twice)",
        ),
        Column(
            "input_bytes",
            "o.input_bytes",
            "bytes of the input documents when the order was made",
        ),
        Column("output_pages", "o.page_count", "pages of the output, in all"),
        Column(
            "page_count",
            "o.page_count",
            "same as output_pages (kept for older queries)",
        ),
        Column("output_bytes", "o.output_bytes", "bytes of the output document"),
        Column("error_message", "o.error_message", "why it failed, as users read it"),
        Column(
            "error_category",
            "o.error_category",
            "kind of failure: timeout, worker_lost, deleted_input, damaged_input, "
            "unsupported, redaction, invalid_request, internal or other",
        ),
        Column(
            "owner_id",
            "o.owner_id",
            "the owner (API key holder); null when auth is off",
        ),
        Column("owner_name", "u.username", "the owner's user name"),
        Column(
            "retry_of",
            "o.retry_of_id",
            "the failed order this one repeats (an admin's retry), else null",
        ),
        Column(
            "deleted_at",
            "o.deleted_at",
            "when the order was deleted through the API or the admin; null if never",
        ),
    ]


def _user_table() -> str:
    from django.apps import apps

    model: Any = apps.get_model(settings.AUTH_USER_MODEL)
    return str(model._meta.db_table)


def create_view(
    schema_editor: Any,
    view: str,
    select_from: str,
    columns: Sequence[Column],
    comment: str,
) -> None:
    """CREATE VIEW `view` AS SELECT `columns` FROM `select_from`, with a comment
    on the view and each column (PostgreSQL; other databases get the view only)."""
    select = ",\n    ".join(f"{c.sql} AS {c.name}" for c in columns)
    schema_editor.execute(
        f"CREATE VIEW {view} AS\nSELECT\n    {select}\nFROM {select_from}"
    )
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_value
    schema_editor.execute(f"COMMENT ON VIEW {view} IS {quote(comment)}")
    for c in columns:
        schema_editor.execute(
            f"COMMENT ON COLUMN {view}.{c.name} IS {quote(c.comment)}"
        )


def create_order_report(
    schema_editor: Any, view: str, table: str, kind: str, extra: Sequence[Column]
) -> None:
    """The report view of one kind of order: one row per order ever made, deleted
    ones included, the common columns then the kind's `extra`."""
    vendor = schema_editor.connection.vendor
    create_view(
        schema_editor,
        view,
        f"{table} o LEFT JOIN {_user_table()} u ON u.id = o.owner_id",
        [*order_columns(vendor, kind), *extra],
        f"One row per {kind} order ever made, deleted ones included "
        "(state CANCELLED when deleted before it ended). Times in ms, sizes in bytes.",
    )


def drop_view(schema_editor: Any, view: str) -> None:
    schema_editor.execute(f"DROP VIEW IF EXISTS {view}")
