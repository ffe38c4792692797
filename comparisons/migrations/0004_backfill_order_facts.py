"""Comparison orders made before 0003 get their input documents (left, right),
pages and bytes in, and error category."""

from django.db import migrations

from jobs.backfill import backfill


def _uses(order):
    return [(order.left_document_id, None), (order.right_document_id, None)]


def forwards(apps, schema_editor):
    order = apps.get_model("comparisons", "ComparisonOrder")
    backfill(apps, order, "comparison", _uses)


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0003_order_facts"),
        ("jobs", "0002_order_inputs_and_refusals"),
        ("documents", "0004_deleted_documents"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
