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
    "comparisons.migrations.0002_comparison_order_report"
)


def drop_report(apps, schema_editor):
    drop_view(schema_editor, "comparison_order_report")


class Migration(migrations.Migration):
    dependencies = [
        ("comparisons", "0002_comparison_order_report"),
        ("documents", "0004_deleted_documents"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_report, _previous.create_view),
        migrations.RemoveIndex(
            model_name="comparisonorder",
            name="comparisons_queued__9088c2_idx",
        ),
        migrations.AddField(
            model_name="comparisonorder",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="comparisonorder",
            name="error_category",
            field=models.CharField(blank=True, max_length=24, null=True),
        ),
        migrations.AddField(
            model_name="comparisonorder",
            name="input_bytes",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="comparisonorder",
            name="input_pages",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="comparisonorder",
            name="retry_of",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="retries",
                to="comparisons.comparisonorder",
            ),
        ),
        migrations.AddIndex(
            model_name="comparisonorder",
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
                ),
                name="comparisons_comparisonorder_rq",
            ),
        ),
        migrations.AddIndex(
            model_name="comparisonorder",
            index=models.Index(
                fields=["processed_at"], name="comparisons_process_4051c1_idx"
            ),
        ),
    ]
