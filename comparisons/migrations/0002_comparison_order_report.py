"""A read-only SQL view for reporting tools: one row per comparison order."""

from django.db import migrations

from jobs.reporting import duration_ms_sql


def create_view(apps, schema_editor):
    vendor = schema_editor.connection.vendor

    def ms(end: str, start: str) -> str:
        return duration_ms_sql(vendor, end, start)

    schema_editor.execute(f"""
CREATE VIEW comparison_order_report AS
SELECT
    o.id AS order_id,
    o.state,
    o.queued_at,
    o.started_at,
    o.processed_at,
    {ms("o.started_at", "o.queued_at")} AS queued_ms,
    {ms("o.processed_at", "o.started_at")} AS processing_ms,
    o.left_document_id,
    o.right_document_id,
    o.fuzz,
    o.page_count,
    o.output_bytes,
    o.attempts,
    o.error_message,
    o.target_document_id,
    o.owner_id
FROM comparisons_comparisonorder o
""")


def drop_view(apps, schema_editor):
    schema_editor.execute("DROP VIEW IF EXISTS comparison_order_report")


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0001_initial"),
        ("orders", "0002_transformation_order_report"),
    ]

    operations = [migrations.RunPython(create_view, drop_view)]
