"""transformation_order_report gains the operations an order applies and the
first and last Bates number of its production."""

from importlib import import_module

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "transformation_order_report"
BEFORE = import_module("orders.migrations.0010_report_redaction_verified").EXTRA
EXTRA = [
    *BEFORE,
    Column(
        "operations",
        "o.operations",
        "operations applied to the outputs, comma separated (stamp, pageNumbers, "
        "bates, rotate, crop, fillForm, flatten, metadata, sanitize, outline, "
        "optimize, encrypt); empty: none",
    ),
    Column(
        "bates_first",
        "o.bates_first",
        "first Bates number of the order's outputs (null: no Bates numbering)",
    ),
    Column(
        "bates_last",
        "o.bates_last",
        "last Bates number of the order's outputs (null: no Bates numbering)",
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
    dependencies = [("orders", "0013_operations")]

    operations = [migrations.RunPython(_create(EXTRA), _create(BEFORE))]
