"""document_report: every document ever stored, live or deleted (the deleted
ones from DeletedDocument), with its size, format, origin, pages and owner."""

from django.conf import settings
from django.db import migrations

from jobs.reporting import Column, drop_view

VIEW = "document_report"

FORMAT = (
    "CASE d.mime_type WHEN 'application/pdf' THEN 'pdf' "
    "WHEN 'image/png' THEN 'png' WHEN 'image/jpeg' THEN 'jpeg' "
    "WHEN 'image/tiff' THEN 'tiff' WHEN 'application/zip' THEN 'zip' "
    "WHEN 'application/vnd.fdf' THEN 'fdf' ELSE 'other' END"
)


FORMAT_COMMENT = "pdf, png, jpeg, tiff, zip, fdf or other"


def _columns(id_sql, deleted_sql, format_sql=FORMAT, format_comment=FORMAT_COMMENT):
    return [
        Column("document_id", id_sql, "the document's id, as the API shows it"),
        Column("title", "d.title", "its title"),
        Column("mime_type", "d.mime_type", "its stored type"),
        Column("format", format_sql, format_comment),
        Column("size_bytes", "d.size", "its size in bytes"),
        Column("pages", "d.page_count", "its pages (null: not a readable PDF)"),
        Column(
            "origin",
            "d.origin",
            "UPLOAD (sent by a client), URL (fetched from documentUrl) or RESULT "
            "(made by an order, or a rendition)",
        ),
        Column("parent_id", "d.parent_id", "the container it is a part of, if any"),
        Column(
            "rendition_of_id",
            "d.rendition_of_id",
            "the document it is a rendition of (an image's PDF, an FDF), if any",
        ),
        Column("owner_id", "d.owner_id", "the owner (API key holder) or null"),
        Column("owner_name", "u.username", "the owner's user name"),
        Column("created_at", "d.created_at", "when it was stored"),
        Column("deleted_at", deleted_sql, "when it was deleted; null while it exists"),
    ]


def create(apps, schema_editor):
    # SQLite rebuilds a table for most ALTERs and refuses while a view names it:
    # there the view is made once the documents tables are final (0010).
    if schema_editor.connection.vendor == "sqlite":
        return
    create_anywhere(apps, schema_editor)


def create_anywhere(
    apps, schema_editor, format_sql=FORMAT, format_comment=FORMAT_COMMENT
):
    users = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
    live = _columns("d.id", "NULL", format_sql, format_comment)
    gone = _columns("d.document_id", "d.deleted_at", format_sql, format_comment)
    select = ",\n    ".join
    schema_editor.execute(
        f"CREATE VIEW {VIEW} AS\n"
        f"SELECT {select(f'{c.sql} AS {c.name}' for c in live)}\n"
        f"FROM documents_document d LEFT JOIN {users} u ON u.id = d.owner_id\n"
        "UNION ALL\n"
        f"SELECT {select(f'{c.sql} AS {c.name}' for c in gone)}\n"
        f"FROM documents_deleteddocument d LEFT JOIN {users} u ON u.id = d.owner_id"
    )
    if schema_editor.connection.vendor == "postgresql":
        quote = schema_editor.quote_value
        schema_editor.execute(
            f"COMMENT ON VIEW {VIEW} IS "
            + quote(
                "One row per document ever stored: live ones (deleted_at null) and "
                "deleted ones. Sizes in bytes."
            )
        )
        for c in gone:
            schema_editor.execute(
                f"COMMENT ON COLUMN {VIEW}.{c.name} IS {quote(c.comment)}"
            )


def drop(apps, schema_editor):
    drop_view(schema_editor, VIEW)


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0004_deleted_documents"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create, drop)]
