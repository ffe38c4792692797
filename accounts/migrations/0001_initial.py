"""ApiKey moves here from documents: its table is renamed, its rows kept."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("documents", "0002_apikey"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ApiKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "name",
                            models.CharField(blank=True, default="", max_length=100),
                        ),
                        ("prefix", models.CharField(editable=False, max_length=12)),
                        (
                            "key_hash",
                            models.CharField(
                                editable=False, max_length=64, unique=True
                            ),
                        ),
                        ("is_active", models.BooleanField(default=True)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("last_used_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_keys",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE documents_apikey RENAME TO accounts_apikey",
                    "ALTER TABLE accounts_apikey RENAME TO documents_apikey",
                ),
            ],
        ),
    ]
