"""toy_order_report: a kind adds its report view with jobs.reporting, as the
conversions app will add conversion_order_report."""

from django.db import migrations

from jobs.reporting import Column, create_order_report, drop_view

VIEW = "toy_order_report"
EXTRA = [Column("word", "o.word", "the word the toy shouts")]


def create(apps, schema_editor):
    create_order_report(schema_editor, VIEW, "toykind_toyorder", "toy", EXTRA)


def drop(apps, schema_editor):
    drop_view(schema_editor, VIEW)


class Migration(migrations.Migration):
    dependencies = [("toykind", "0003_deleted_orders_index")]

    operations = [migrations.RunPython(create, drop)]
