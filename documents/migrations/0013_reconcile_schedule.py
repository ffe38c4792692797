"""The workers' scheduler runs the reconciler every hour (django-q2 schedules)."""

from django.db import migrations

FUNC = "documents.reconcile.reconcile_task"


def create(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.get_or_create(
        func=FUNC,
        defaults={
            "name": "reconcile files and rows",
            "schedule_type": "H",
            "repeats": -1,
        },
    )


def remove(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(func=FUNC).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0012_file_lost_at"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create, remove)]
