"""A large, realistic history of orders generated in SQL (generate_series), for
bench_reporting.py: owners, documents (some deleted), transformation and
comparison orders over a year, their input rows, refused requests.

The spread: orders grow over the year (more recent days are busier), 90 % are
processed, 5 % fail (in several categories), a few are cancelled or deleted, and
the last minutes hold queued and running ones; a few owners make most orders;
formats, operations, pages and sizes are skewed as real traffic is. Rows are
inserted in time order, as a live service writes them. Deterministic (setseed).
"""

from __future__ import annotations

from typing import Any

OWNERS = 60
DAYS = 365

# Error categories and a message of each, as jobs.errors.classify names them.
FAILURES = (
    ("damaged_input", "document 'doc-{n}' could not be opened as a PDF"),
    ("timeout", "timed out after 600 s"),
    ("deleted_input", "document 'doc-{n}' was deleted before the order ran"),
    ("redaction", "Redaction could not be verified: redacted text is still present"),
    ("invalid_request", "Opacity must be between 0 and 1 (got 3)."),
    ("internal", "the order failed because of an internal error; it has been logged"),
)

SETUP = """
SELECT setseed(0.42);
INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,
                       email, is_staff, is_active, date_joined)
SELECT '!', false, 'owner' || g, '', '', '', false, true, now()
FROM generate_series(1, {owners}) g;
"""

DOCUMENTS = """
INSERT INTO documents_document (id, title, mime_type, format, size, sha256, page_count,
                                layout, rendition_state, text_state, is_container,
                                ocr_mode, file, origin, owner_id, created_at)
SELECT 'doc-' || g,
       'Document ' || g,
       CASE WHEN r < 0.85 THEN 'application/pdf' WHEN r < 0.95 THEN 'image/png'
            ELSE 'image/jpeg' END,
       CASE WHEN r < 0.85 THEN 'pdf' WHEN r < 0.95 THEN 'png' ELSE 'jpg' END,
       (20000 * exp(random() * 5))::bigint,
       md5(g::text) || md5(g::text),
       1 + (random() ^ 3 * 300)::int,
       '[]'::jsonb,
       'READY', 'READY', false, '',
       'documents/bench/' || g,
       'UPLOAD',
       (SELECT min(id) FROM auth_user) + floor({owners} * random() ^ 3)::int,
       now() - interval '{days} days' * (1 - (g::float / {docs}) ^ 0.7)
FROM (SELECT g, random() AS r FROM generate_series(1, {docs}) g) s;

INSERT INTO documents_deleteddocument (document_id, title, mime_type, size, page_count,
                                       origin, owner_id, created_at, deleted_at)
SELECT 'gone-' || g, 'Deleted ' || g, 'application/pdf', 50000, 3, 'UPLOAD', NULL,
       now() - interval '{days} days' * random(), now() - interval '1 day' * random()
FROM generate_series(1, {docs} / 20) g;
"""

# One CTE draws the order's facts; the INSERT derives the rest from them.
ORDERS = """
INSERT INTO {table} ({columns})
SELECT {values}
FROM (
  SELECT g,
         now() - interval '{days} days' * (1 - (g::float / {count}) ^ 0.7)
               - interval '1 minute' * random() AS queued_at,
         random() AS r_state, random() AS r_kind, random() AS r_op,
         interval '1 millisecond' * exp(random() * 5.5) AS waited,
         interval '1 millisecond' * exp(2 + random() * 6.5) AS ran,
         1 + (random() ^ 2 * 40)::int AS pages,
         (30000 * exp(random() * 5))::bigint AS bytes,
         (SELECT min(id) FROM auth_user) + floor({owners} * random() ^ 3)::int AS owner,
         1 + floor(random() * {docs})::int AS doc,
         floor(random() * {failures})::int AS failure
  FROM generate_series(1, {count}) g
) o;
"""

STATE = """CASE WHEN g > {count} - 40 THEN 'QUEUED' WHEN g > {count} - 50 THEN 'PROCESSING'
     WHEN r_state < 0.05 THEN 'FAILED' WHEN r_state < 0.06 THEN 'QUEUED'
     ELSE 'PROCESSED' END"""

ENDED = "(g <= {count} - 50 AND r_state >= 0.06)"

COMMON = {
    "id": "'{prefix}-' || g",
    "state": STATE,
    "queued_at": "queued_at",
    "started_at": "CASE WHEN g > {count} - 40 OR (g <= {count} - 50 AND r_state BETWEEN "
    "0.05 AND 0.06) THEN NULL ELSE queued_at + waited END",
    "processed_at": f"CASE WHEN {ENDED} OR (g <= {{count}} - 50 AND r_state < 0.05) "
    "THEN queued_at + waited + ran END",
    "attempts": "CASE WHEN g > {count} - 40 OR (g <= {count} - 50 AND r_state BETWEEN "
    "0.05 AND 0.06) THEN 0 ELSE 1 END",
    "error_message": "CASE WHEN g <= {count} - 50 AND r_state < 0.05 THEN "
    "replace((ARRAY[{messages}])[failure + 1], '{{n}}', doc::text) END",
    "error_category": "CASE WHEN g <= {count} - 50 AND r_state < 0.05 THEN "
    "(ARRAY[{categories}])[failure + 1] END",
    "input_pages": "pages",
    "input_bytes": "bytes",
    "page_count": f"CASE WHEN {ENDED} THEN pages END",
    "output_bytes": f"CASE WHEN {ENDED} THEN bytes / 2 END",
    "owner_id": "owner",
    # 1 % cancelled while queued, 1 % deleted after they ended.
    "deleted_at": "CASE WHEN g <= {count} - 50 AND r_state BETWEEN 0.05 AND 0.06 "
    "THEN queued_at + interval '5 seconds' WHEN r_state > 0.99 "
    "THEN queued_at + interval '1 day' END",
}

TRANSFORMATION = {
    **COMMON,
    "format": "CASE WHEN r_kind < 0.75 THEN 'pdf' WHEN r_kind < 0.9 THEN 'pdf-fdf' "
    "ELSE 'zip' END",
    "request": "jsonb_build_object('transformationDetails', jsonb_build_array("
    "jsonb_build_object('transformationElements', jsonb_build_array("
    "jsonb_build_object('documentId', jsonb_build_object('id', 'doc-' || doc))))),"
    "'annotations', NULL)",
    "output_ids": "'[]'::jsonb",
    "operations": "CASE WHEN r_op > 0.9 THEN 'stamp' ELSE '' END",
    "operation_results": "'[]'::jsonb",
    "input_count": "CASE WHEN r_op < 0.25 THEN 2 ELSE 1 END",
    "output_count": "CASE WHEN r_kind > 0.95 THEN 3 ELSE 1 END",
    "redacts": "r_op BETWEEN 0.5 AND 0.65",
    "annotates": "r_op BETWEEN 0.6 AND 0.8",
    "merges": "r_op < 0.25",
}

COMPARISON = {
    **COMMON,
    "left_document_id": "'doc-' || doc",
    "right_document_id": "'doc-' || (1 + (doc * 7919) % {docs})",
    "fuzz": "3.0",
    "highlight_color": "'FF0000'",
    "lowlight_color": "''",
}

INPUTS = """
INSERT INTO jobs_orderinput (kind, order_id, document_id, position, pages, bytes, queued_at)
SELECT '{kind}', o.id,
       'doc-' || (1 + ((hashtext(o.id) & 2147483647)::bigint + n * 7919) % {docs}), n,
       greatest(1, o.input_pages / (1 + {extra})), o.input_bytes / (1 + {extra}),
       o.queued_at
FROM {table} o, generate_series(0, {extra}) n
WHERE {where}
ORDER BY o.queued_at;
"""

REFUSALS = """
INSERT INTO jobs_orderrefusal (kind, status, reason, field, detail, owner_id, refused_at)
SELECT 'transformation',
       CASE WHEN r < 0.9 THEN 400 ELSE 429 END,
       CASE WHEN r < 0.4 THEN 'unknown_document' WHEN r < 0.7 THEN 'page_out_of_range'
            WHEN r < 0.9 THEN 'invalid_request' ELSE 'queue_full' END,
       '', 'generated', NULL,
       now() - interval '{days} days' * (1 - (g::float / {count}) ^ 0.7)
FROM (SELECT g, random() AS r FROM generate_series(1, {count}) g) s;
"""


def _literal(values: list[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)


def _orders_sql(
    table: str, prefix: str, count: int, docs: int, spec: dict[str, str]
) -> str:
    params: dict[str, Any] = {
        "count": count,
        "docs": docs,
        "prefix": prefix,
        "messages": _literal([m for _, m in FAILURES]),
        "categories": _literal([c for c, _ in FAILURES]),
    }
    values = ",\n       ".join(v.format(**params) for v in spec.values())
    return ORDERS.format(
        table=table,
        columns=", ".join(spec),
        values=values,
        days=DAYS,
        count=count,
        owners=OWNERS,
        docs=docs,
        failures=len(FAILURES),
    )


def statements(orders: int) -> list[tuple[str, str]]:
    """(what, SQL) in the order to run them, for `orders` orders in all."""
    comparisons = max(1, orders // 10)
    transformations = orders - comparisons
    docs = max(100, orders // 10)
    return [
        ("owners", SETUP.format(owners=OWNERS)),
        ("documents", DOCUMENTS.format(docs=docs, owners=OWNERS, days=DAYS)),
        (
            f"{transformations:,} transformation orders",
            _orders_sql(
                "orders_transformationorder", "t", transformations, docs, TRANSFORMATION
            ),
        ),
        (
            f"{comparisons:,} comparison orders",
            _orders_sql(
                "comparisons_comparisonorder", "c", comparisons, docs, COMPARISON
            ),
        ),
        (
            "order inputs",
            INPUTS.format(
                kind="transformation",
                table="orders_transformationorder",
                docs=docs,
                extra=0,
                where="NOT o.merges",
            )
            + INPUTS.format(
                kind="transformation",
                table="orders_transformationorder",
                docs=docs,
                extra=1,
                where="o.merges",
            )
            + INPUTS.format(
                kind="comparison",
                table="comparisons_comparisonorder",
                docs=docs,
                extra=1,
                where="true",
            ),
        ),
        ("refusals", REFUSALS.format(count=max(10, orders // 50), days=DAYS)),
    ]
