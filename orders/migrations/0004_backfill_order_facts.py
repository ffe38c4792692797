"""Orders made before 0003 get the facts new orders record at creation: their
input documents (jobs.OrderInput), pages and bytes in, error category, and what
they do (redacts, annotates, merges, outputs), read from their stored request."""

from django.db import migrations

from jobs.backfill import backfill

REDACTIONS = {"RedactElemType", "RedactTextElemType"}


def _elements(order):
    for detail in order.request.get("transformationDetails") or []:
        yield detail, detail.get("transformationElements") or []


def _uses(order):
    uses = []
    for _, elements in _elements(order):
        for element in elements:
            ranges = element.get("pagesSelectionList") or []
            pages = (
                sum(r["maxPage"] - r["minPage"] + 1 for r in ranges) if ranges else None
            )
            uses.append((element["documentId"]["id"], pages))
    return uses


def _flags(order):
    annotations = (order.request.get("annotations") or {}).get("annotations") or []
    kinds = [str(a.get("type", "")).rsplit(".", 1)[-1] for a in annotations]
    details = list(_elements(order))
    return {
        "redacts": any(k in REDACTIONS for k in kinds),
        "annotates": any(k not in REDACTIONS for k in kinds),
        "merges": any(
            len({e["documentId"]["id"] for e in elements}) > 1
            for _, elements in details
        ),
        "output_count": len(details) or 1,
    }


def forwards(apps, schema_editor):
    order = apps.get_model("orders", "TransformationOrder")
    backfill(apps, order, "transformation", _uses, _flags)


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0003_order_facts"),
        ("jobs", "0002_order_inputs_and_refusals"),
        ("documents", "0004_deleted_documents"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
