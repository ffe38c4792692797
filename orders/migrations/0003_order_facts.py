"""Facts for reports and the admin on every order (inputs' pages and bytes, error
category, retry link, deleted mark), and the report indexes. The report view reads
this table: it is dropped first (SQLite rebuilds tables that gain a foreign key,
and refuses to while a view reads them) and made again in 0005."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from jobs.reporting import drop_view

_previous = importlib.import_module(
    "orders.migrations.0002_transformation_order_report"
)


def drop_report(apps, schema_editor):
    drop_view(schema_editor, "transformation_order_report")


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0004_deleted_documents"),
        ("orders", "0002_transformation_order_report"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_report, _previous.create_view),
        migrations.RemoveIndex(
            model_name="transformationorder",
            name="orders_tran_queued__0f758b_idx",
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="annotates",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="error_category",
            field=models.CharField(blank=True, max_length=24, null=True),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="input_bytes",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="input_pages",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="merges",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="output_count",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="redacts",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="transformationorder",
            name="retry_of",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="retries",
                to="orders.transformationorder",
            ),
        ),
        migrations.AddIndex(
            model_name="transformationorder",
            index=models.Index(
                fields=["queued_at"],
                include=(
                    "state",
                    "started_at",
                    "processed_at",
                    "deleted_at",
                    "owner",
                    "error_category",
                    "input_pages",
                    "input_bytes",
                    "page_count",
                    "output_bytes",
                    "format",
                ),
                name="orders_transformationorder_rq",
            ),
        ),
        migrations.AddIndex(
            model_name="transformationorder",
            index=models.Index(
                fields=["processed_at"], name="orders_tran_process_7d5393_idx"
            ),
        ),
    ]
