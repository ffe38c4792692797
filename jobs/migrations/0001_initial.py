"""WorkerHeartbeat moves here from documents: its table is renamed, its rows kept."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("documents", "0002_apikey")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="WorkerHeartbeat",
                    fields=[
                        (
                            "name",
                            models.CharField(
                                max_length=200, primary_key=True, serialize=False
                            ),
                        ),
                        ("seen_at", models.DateTimeField()),
                    ],
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE documents_workerheartbeat RENAME TO jobs_workerheartbeat",
                    "ALTER TABLE jobs_workerheartbeat RENAME TO documents_workerheartbeat",
                ),
            ],
        ),
    ]
