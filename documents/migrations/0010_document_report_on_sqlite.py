"""document_report on SQLite, made after the migrations that rebuild the
documents tables (SQLite refuses to rebuild a table a view names)."""

from importlib import import_module

from django.db import migrations

REPORT = import_module("documents.migrations.0005_document_report")


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        REPORT.create_anywhere(apps, schema_editor)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        REPORT.drop(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("documents", "0009_deleted_document_origin")]

    operations = [migrations.RunPython(create, drop)]
