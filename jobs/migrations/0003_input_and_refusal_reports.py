"""order_input_report (one row per order × input document) and
order_refusal_report (order requests answered 4xx), for every kind of order."""

from django.conf import settings
from django.db import migrations

from jobs.reporting import Column, create_view, drop_view

INPUTS = [
    Column("kind", "i.kind", "the kind of order: transformation, comparison..."),
    Column("order_id", "i.order_id", "the order (see <kind>_order_report)"),
    Column("document_id", "i.document_id", "an input document (see document_report)"),
    Column(
        "position",
        "i.position",
        "where the document first appears in the order, from 0 (comparisons: 0 is "
        "the left document)",
    ),
    Column(
        "pages",
        "i.pages",
        "pages the order takes from the document (a page taken twice counts twice)",
    ),
    Column("bytes", "i.bytes", "the document's size in bytes when the order was made"),
    Column("queued_at", "i.queued_at", "when the order was accepted"),
]

REFUSALS = [
    Column("kind", "r.kind", "the kind of order asked for"),
    Column("refused_at", "r.refused_at", "when the request was answered"),
    Column("status", "r.status", "the HTTP status answered (4xx)"),
    Column(
        "reason",
        "r.reason",
        "why: unknown_document, unreadable_document, page_out_of_range, over_limit, "
        "invalid_request, malformed, no_key, queue_full, disk_full or other",
    ),
    Column(
        "field",
        "r.field",
        "the first request field at fault, list indexes folded (a[].b), or empty",
    ),
    Column("detail", "r.detail", "the problem's detail as the client read it"),
    Column("owner_id", "r.owner_id", "the caller's owner when known"),
    Column("owner_name", "u.username", "the caller's user name when known"),
]


def _users(apps):
    return apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table


def create(apps, schema_editor):
    create_view(
        schema_editor,
        "order_input_report",
        "jobs_orderinput i",
        INPUTS,
        "One row per order x input document, kept after either is deleted.",
    )
    create_view(
        schema_editor,
        "order_refusal_report",
        f"jobs_orderrefusal r LEFT JOIN {_users(apps)} u ON u.id = r.owner_id",
        REFUSALS,
        "One row per request to create an order that was refused with a 4xx.",
    )


def drop(apps, schema_editor):
    drop_view(schema_editor, "order_input_report")
    drop_view(schema_editor, "order_refusal_report")


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0002_order_inputs_and_refusals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create, drop)]
