from importlib import import_module

from django.db import migrations, models

from jobs.reporting import drop_view

# The report view names the table: SQLite may rebuild the table to add a
# column and refuses while a view names it. The view is made again after.
REPORT = import_module("orders.migrations.0014_report_operations")


def drop_report(apps, schema_editor):
    drop_view(schema_editor, REPORT.VIEW)


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0014_report_operations"),
    ]

    operations = [
        migrations.RunPython(drop_report, REPORT._create(REPORT.EXTRA)),
        migrations.AddField(
            model_name="transformationorder",
            name="redaction_record",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(REPORT._create(REPORT.EXTRA), drop_report),
    ]
