"""conversion_fidelity_report: one row per document a conversion or recognition
made readable, with what the rendition kept and could not (fonts substituted,
the encoding chosen and its confidence, parts skipped, OCR confidence)."""

from django.db import migrations

VIEW = "conversion_fidelity_report"

COLUMNS = [
    ("document_id", "d.id", "the document's id"),
    ("format", "d.format", "its format as uploaded: docx, xlsx, eml, txt, png..."),
    ("pages", "d.page_count", "pages of its rendition"),
    ("encoding", "{encoding}", "text encoding chosen (text, HTML, CSV, mail)"),
    ("encoding_source", "{encoding_source}", "bom, declared, utf-8 or guessed"),
    (
        "encoding_confidence",
        "{encoding_confidence}",
        "1 when declared, else the guess's",
    ),
    ("fonts_substituted", "{substituted}", "fonts asked that another stood in for"),
    (
        "fonts_not_metric_compatible",
        "{not_compatible}",
        "stand-ins whose widths differ: lines may break elsewhere",
    ),
    ("parts_skipped", "{skipped}", "parts not shown (macros, hidden sheets, links...)"),
    ("ocr_pages", "{ocr_pages}", "pages recognised"),
    ("ocr_mean_confidence", "{ocr_mean}", "mean word confidence of those pages, 0-100"),
    ("ocr_min_confidence", "{ocr_min}", "the lowest page's mean word confidence"),
    ("created_at", "d.created_at", "when it was stored"),
]

POSTGRES = {
    "encoding": "d.fidelity->'encoding'->>'name'",
    "encoding_source": "d.fidelity->'encoding'->>'source'",
    "encoding_confidence": "(d.fidelity->'encoding'->>'confidence')::float",
    "substituted": "coalesce(jsonb_array_length(d.fidelity->'substitutions'), 0)",
    "not_compatible": (
        "(SELECT count(*) FROM jsonb_array_elements(d.fidelity->'substitutions') s"
        " WHERE NOT (s->>'metric_compatible')::boolean)"
    ),
    "skipped": (
        "(SELECT coalesce(sum((s->>'count')::int), 0)"
        " FROM jsonb_array_elements(d.fidelity->'skipped') s)"
    ),
    "ocr_pages": "coalesce(jsonb_array_length(d.ocr_report->'pages_ocred'), 0)",
    "ocr_mean": (
        "(SELECT round(avg((p->>'confidence')::numeric), 1)"
        " FROM jsonb_array_elements(d.ocr_report->'pages') p)"
    ),
    "ocr_min": (
        "(SELECT min((p->>'confidence')::numeric)"
        " FROM jsonb_array_elements(d.ocr_report->'pages') p)"
    ),
}

SQLITE = {
    "encoding": "json_extract(d.fidelity, '$.encoding.name')",
    "encoding_source": "json_extract(d.fidelity, '$.encoding.source')",
    "encoding_confidence": "json_extract(d.fidelity, '$.encoding.confidence')",
    "substituted": "coalesce(json_array_length(d.fidelity, '$.substitutions'), 0)",
    "not_compatible": (
        "(SELECT count(*) FROM json_each(d.fidelity, '$.substitutions') s"
        " WHERE NOT json_extract(s.value, '$.metric_compatible'))"
    ),
    "skipped": (
        "(SELECT coalesce(sum(json_extract(s.value, '$.count')), 0)"
        " FROM json_each(d.fidelity, '$.skipped') s)"
    ),
    "ocr_pages": "coalesce(json_array_length(d.ocr_report, '$.pages_ocred'), 0)",
    "ocr_mean": (
        "(SELECT round(avg(json_extract(p.value, '$.confidence')), 1)"
        " FROM json_each(d.ocr_report, '$.pages') p)"
    ),
    "ocr_min": (
        "(SELECT min(json_extract(p.value, '$.confidence'))"
        " FROM json_each(d.ocr_report, '$.pages') p)"
    ),
}


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    parts = POSTGRES if vendor == "postgresql" else SQLITE
    select = ",\n    ".join(
        f"{sql.format(**parts)} AS {name}" for name, sql, _ in COLUMNS
    )
    schema_editor.execute(
        f"CREATE VIEW {VIEW} AS\nSELECT {select}\nFROM documents_document d\n"
        "WHERE d.fidelity IS NOT NULL OR d.ocr_report IS NOT NULL"
    )
    if vendor == "postgresql":
        quote = schema_editor.quote_value
        schema_editor.execute(
            f"COMMENT ON VIEW {VIEW} IS "
            + quote(
                "One row per live document a conversion or recognition made "
                "readable: what its rendition kept and could not."
            )
        )
        for name, _, comment in COLUMNS:
            schema_editor.execute(
                f"COMMENT ON COLUMN {VIEW}.{name} IS {quote(comment)}"
            )


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP VIEW IF EXISTS {VIEW}")


class Migration(migrations.Migration):
    dependencies = [("documents", "0014_fidelity")]

    operations = [migrations.RunPython(create, drop)]
