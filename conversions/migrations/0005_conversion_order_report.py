"""conversion_order_report with the columns every kind has (see jobs.reporting)."""

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "conversion_order_report"

EXTRA = [
    Column("document_id", "o.document_id", "the document converted"),
    Column("format", "o.format", "the format asked for: pdf, docx, odt, png..."),
    Column(
        "automatic",
        "o.automatic",
        "made by the service for an upload to be read (its PDF), not asked for",
    ),
    Column(
        "result_document_id",
        "o.result_document_id",
        "the document in that format (null until it ends, or once it is deleted)",
    ),
]


def create(apps, schema_editor):
    create_order_report(
        schema_editor, VIEW, "conversions_conversionorder", "conversion", EXTRA
    )


def drop(apps, schema_editor):
    drop_view(schema_editor, VIEW)


class Migration(migrations.Migration):
    dependencies = [("conversions", "0004_order_facts")]

    operations = [migrations.RunPython(create, drop)]
