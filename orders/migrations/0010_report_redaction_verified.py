"""transformation_order_report gains `redaction_verified`: whether a redacting
order's outputs were read back and found free of every removed word."""

from importlib import import_module

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "transformation_order_report"
BEFORE = import_module("orders.migrations.0005_transformation_order_report").EXTRA
EXTRA = [
    *BEFORE,
    Column(
        "redaction_verified",
        "o.redaction_verified",
        "a redacting order's outputs were verified free of the removed words "
        "(null: it redacts nothing, or has not ended)",
    ),
]


def _create(extra: list[Column]):
    def create(apps, schema_editor):
        drop_view(schema_editor, VIEW)
        create_order_report(
            schema_editor, VIEW, "orders_transformationorder", "transformation", extra
        )

    return create


class Migration(migrations.Migration):
    dependencies = [("orders", "0009_redaction_verified")]

    operations = [migrations.RunPython(_create(EXTRA), _create(BEFORE))]
