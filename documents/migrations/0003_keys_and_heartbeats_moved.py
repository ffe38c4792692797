"""ApiKey moved to accounts and WorkerHeartbeat to jobs (their tables with them)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0002_apikey"),
        ("accounts", "0001_initial"),
        ("jobs", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ApiKey"),
                migrations.DeleteModel(name="WorkerHeartbeat"),
            ],
        ),
    ]
