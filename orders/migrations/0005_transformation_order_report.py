"""transformation_order_report again, with what 0003 added: every order ever made
(deleted ones included, CANCELLED when deleted before they ended), pages and bytes
in and out, the operations an order does, the owner's name, the error category."""

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "transformation_order_report"

EXTRA = [
    Column("format", "o.format", "output format: pdf, pdf-fdf or zip"),
    Column("input_count", "o.input_count", "number of distinct input documents"),
    Column("output_count", "o.output_count", "number of output documents"),
    Column("has_redaction", "o.redacts", "the order redacts (true redaction)"),
    Column(
        "has_annotations",
        "o.annotates",
        "the order adds annotations other than redactions",
    ),
    Column("is_merge", "o.merges", "an output takes pages of two documents or more"),
    Column("is_zip", "o.format = 'zip'", "the output is a zip of the selections"),
    Column(
        "result_document_id",
        "o.result_document_id",
        "the document made (null until it ends, or once that document is deleted)",
    ),
]


def create(apps, schema_editor):
    create_order_report(
        schema_editor, VIEW, "orders_transformationorder", "transformation", EXTRA
    )


def drop(apps, schema_editor):
    drop_view(schema_editor, VIEW)


class Migration(migrations.Migration):
    dependencies = [("orders", "0004_backfill_order_facts")]

    operations = [migrations.RunPython(create, drop)]
