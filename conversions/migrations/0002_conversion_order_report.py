"""A read-only SQL view for reporting tools: one row per conversion order."""

from django.db import migrations

from jobs.reporting import duration_ms_sql


def create_view(apps, schema_editor):
    vendor = schema_editor.connection.vendor

    def ms(end: str, start: str) -> str:
        return duration_ms_sql(vendor, end, start)

    schema_editor.execute(f"""
CREATE VIEW conversion_order_report AS
SELECT
    o.id AS order_id,
    o.state,
    o.format,
    o.automatic,
    o.queued_at,
    o.started_at,
    o.processed_at,
    {ms("o.started_at", "o.queued_at")} AS queued_ms,
    {ms("o.processed_at", "o.started_at")} AS processing_ms,
    o.document_id,
    o.page_count,
    o.output_bytes,
    o.attempts,
    o.error_message,
    o.result_document_id,
    o.owner_id
FROM conversions_conversionorder o
""")


def drop_view(apps, schema_editor):
    schema_editor.execute("DROP VIEW IF EXISTS conversion_order_report")


class Migration(migrations.Migration):
    dependencies = [("conversions", "0001_initial")]

    operations = [migrations.RunPython(create_view, drop_view)]
