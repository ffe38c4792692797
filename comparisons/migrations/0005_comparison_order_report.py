"""comparison_order_report again, with what 0003 added (see jobs.reporting)."""

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "comparison_order_report"

EXTRA = [
    Column("left_document_id", "o.left_document_id", "the left (older) document"),
    Column("right_document_id", "o.right_document_id", "the right (newer) document"),
    Column("fuzz", "o.fuzz", "colour tolerance, percent"),
    Column(
        "target_document_id",
        "o.target_document_id",
        "the highlighted PDF made (null until it ends, or once it is deleted)",
    ),
]


def create(apps, schema_editor):
    create_order_report(
        schema_editor, VIEW, "comparisons_comparisonorder", "comparison", EXTRA
    )


def drop(apps, schema_editor):
    drop_view(schema_editor, VIEW)


class Migration(migrations.Migration):
    dependencies = [("comparisons", "0004_backfill_order_facts")]

    operations = [migrations.RunPython(create, drop)]
