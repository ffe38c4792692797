"""A read-only SQL view for reporting tools: one row per transformation order."""

from django.db import migrations

from jobs.reporting import duration_ms_sql


def _view_sql(ms) -> str:
    return f"""
CREATE VIEW transformation_order_report AS
SELECT
    o.id AS order_id,
    o.state,
    o.format,
    o.queued_at,
    o.started_at,
    o.processed_at,
    {ms("o.started_at", "o.queued_at")} AS queued_ms,
    {ms("o.processed_at", "o.started_at")} AS processing_ms,
    o.page_count,
    o.input_count,
    o.output_bytes,
    o.attempts,
    o.error_message,
    o.result_document_id,
    o.owner_id
FROM orders_transformationorder o
"""


def create_view(apps, schema_editor):
    vendor = schema_editor.connection.vendor

    def ms(end: str, start: str) -> str:
        return duration_ms_sql(vendor, end, start)

    schema_editor.execute(_view_sql(ms))


def drop_view(apps, schema_editor):
    schema_editor.execute("DROP VIEW IF EXISTS transformation_order_report")


class Migration(migrations.Migration):
    dependencies = [("orders", "0001_initial")]

    operations = [migrations.RunPython(create_view, drop_view)]
