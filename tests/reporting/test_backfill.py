"""Orders made before the facts were recorded get them from the data migration."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

# The schema of the last release: order facts and the jobs app came after it.
RELEASED = [
    ("documents", "0002_apikey"),
    ("orders", "0002_transformation_order_report"),
    ("comparisons", "0002_comparison_order_report"),
]
PREFIX = "com.vendor.viewer.annotation.api."


def _element(doc: str, *ranges: tuple[int, int]) -> dict[str, object]:
    return {
        "documentId": {"id": doc},
        "pagesSelectionList": [{"minPage": a, "maxPage": b} for a, b in ranges] or None,
    }


@pytest.mark.django_db(transaction=True)
def test_existing_orders_get_inputs_flags_totals_and_categories() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([*RELEASED, ("jobs", None)])
    try:
        _check_backfill(executor)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def _check_backfill(executor: MigrationExecutor) -> None:
    old = executor.loader.project_state(RELEASED).apps
    document = old.get_model("documents", "Document")
    for doc_id, pages, size in (("a", 10, 1000), ("b", 4, 400)):
        document.objects.create(
            id=doc_id,
            mime_type="application/pdf",
            size=size,
            sha256="0",
            page_count=pages,
            file="x",
        )
    now = timezone.now()
    old.get_model("orders", "TransformationOrder").objects.create(
        id="t1",
        format="pdf",
        queued_at=now,
        state="FAILED",
        error_message="document 'gone' was deleted before the order ran",
        request={
            "transformationDetails": [
                {
                    "transformationElements": [
                        _element("a", (1, 2), (4, 4)),
                        _element("b"),
                    ]
                }
            ],
            "annotations": {"annotations": [{"type": PREFIX + "RedactElemType"}]},
        },
    )
    old.get_model("comparisons", "ComparisonOrder").objects.create(
        id="c1", left_document_id="a", right_document_id="gone", queued_at=now
    )

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT kind, order_id, document_id, position, pages, bytes "
            "FROM order_input_report ORDER BY order_id, position"
        )
        assert cursor.fetchall() == [
            ("comparison", "c1", "a", 0, 10, 1000),
            ("comparison", "c1", "gone", 1, None, None),
            ("transformation", "t1", "a", 0, 3, 1000),
            ("transformation", "t1", "b", 1, 4, 400),
        ]
        cursor.execute(
            "SELECT input_pages, input_bytes, has_redaction, has_annotations, is_merge, "
            "output_count, error_category FROM transformation_order_report"
        )
        assert cursor.fetchall() == [(7, 1400, True, False, True, 1, "deleted_input")]
        cursor.execute("SELECT input_pages, input_bytes FROM comparison_order_report")
        assert cursor.fetchall() == [(None, 1000)]
