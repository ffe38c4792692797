"""The README's Reporting section: its five queries run as written and answer,
and every reporting view and column is documented in the database."""

from __future__ import annotations

from typing import Any

from django.db import connection

from bench.bench_reporting import readme_queries
from tests.admin.client_api import ClientApi, build

VIEWS = (
    "transformation_order_report",
    "comparison_order_report",
    "order_input_report",
    "document_report",
    "order_refusal_report",
)


def test_the_readme_queries_run_as_written_on_a_small_history(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    build(ClientApi(client, django_capture_on_commit_callbacks), full=False)
    queries = readme_queries()
    assert len(queries) == 5
    answers = []
    with connection.cursor() as cursor:
        for sql in queries:
            cursor.execute(sql)
            answers.append(cursor.fetchall())
    assert all(answers), [len(a) for a in answers]
    per_day, times, failures, documents, owners = answers
    assert sum(row[1] for row in per_day) >= 20
    assert {row[0] for row in times} >= {"pdf", "zip", "pdf-fdf"}
    assert ("transformation", "damaged_input") in {(r[0], r[1]) for r in failures}
    assert ("comparison", "damaged_input") in {(r[0], r[1]) for r in failures}
    assert documents[0][0] and documents[0][1] >= 2  # the most used, with its orders
    assert owners[0][0] is None and owners[0][1] >= 10  # auth off: no owners


def test_every_report_view_and_column_has_a_comment() -> None:
    with connection.cursor() as cursor:
        for view in VIEWS:
            cursor.execute("SELECT obj_description(%s::regclass, 'pg_class')", [view])
            assert cursor.fetchone()[0], view
            cursor.execute(
                "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = %s::regclass "
                "AND a.attnum > 0 AND NOT a.attisdropped "
                "AND col_description(a.attrelid, a.attnum) IS NULL",
                [view],
            )
            assert cursor.fetchall() == [], view


def test_every_registered_kind_of_order_has_its_report_view_and_indexes() -> None:
    """A new kind (conversions) fails here until it adds `<kind>_order_report`
    (jobs.reporting.create_order_report) and keeps jobs.models.report_indexes."""
    from jobs.models import REPORT_COLUMNS
    from jobs.registry import kinds

    with connection.cursor() as cursor:
        for kind in kinds():
            view = f"{kind.name}_order_report"
            cursor.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
                [view],
            )
            columns = {row[0] for row in cursor.fetchall()}
            assert {
                "order_id",
                "state",
                "queued_ms",
                "error_category",
                "deleted_at",
            } <= columns, view
            covering = [
                index
                for index in kind.model._meta.indexes
                if index.fields == ["queued_at"] and index.include
            ]
            assert covering and set(REPORT_COLUMNS) <= set(covering[0].include), (
                kind.name
            )
