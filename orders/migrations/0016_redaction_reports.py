"""redaction_record_report (one row per order with a redaction record) and
redaction_area_report (one row per area an order redacted), read from the
record each redacting order keeps (orders.record)."""

from django.db import migrations

RECORDS = "redaction_record_report"
AREAS = "redaction_area_report"

TOTALS = [
    ("areas", "areas redacted, rule matches and coordinates"),
    ("rule_areas", "areas that came from a redaction rule's match"),
    ("glyphs", "glyphs removed under the areas"),
    ("images", "image placements whose pixels under an area were blanked"),
    ("paths", "vector paths an area covered, removed"),
    ("annotations", "annotations and links removed with an area"),
    ("fields", "form fields removed with an area"),
    ("scrubbed_matches", "rule matches scrubbed outside any area (metadata, notes)"),
    ("strings", "document strings rewritten or removed (metadata, outline, values)"),
    ("names", "names renamed because they spelled a removed word"),
    ("streams", "content streams rewritten (alternate texts, marked content)"),
    ("objects_read", "objects of the outputs read back by the verification"),
]
TOTAL_KEYS = {
    "rule_areas": "ruleAreas",
    "scrubbed_matches": "scrubbedMatches",
    "objects_read": "objectsRead",
}
AREA_COLUMNS = [
    ("output", "$.output", "int", "output number, from 0"),
    ("entry", "$.entry", "int", "entry of a zip output, from 0 (null: not a zip)"),
    ("page", "$.page", "int", "page of the output, from 0"),
    ("area", "$.area", "int", "area on that page, from 0"),
    ("source", "$.source", "text", "rule or coordinates"),
    ("rule", "$.rule", "int", "the rule's number in the order (null: coordinates)"),
    ("rule_name", "$.ruleName", "text", "preset:<name>, text or regex"),
    ("match_id", "$.matchId", "text", "the match's id, as the dry run named it"),
    ("target", "$.target", "text", "page (glyphs) or field (a form field went)"),
    ("x", "$.x", "float", "left edge, points from the left of the page"),
    ("y", "$.y", "float", "top edge, points from the top of the page"),
    ("w", "$.w", "float", "width, points"),
    ("h", "$.h", "float", "height, points"),
    ("glyphs", "$.glyphs", "int", "glyphs removed"),
    ("images", "$.images", "int", "image placements blanked under it"),
    ("paths", "$.paths", "int", "vector paths removed"),
    ("annotations", "$.annotations", "int", "annotations and links removed"),
    ("fields", "$.fields", "int", "form fields removed"),
    ("text_hmac", "$.textHmac", "text", "keyed hash of the removed text (never it)"),
]


def _pg(path: str, kind: str, column: str) -> str:
    keys = path[2:].split(".")
    text = (
        f"{column}->>'{keys[-1]}'"
        if len(keys) == 1
        else (f"{column}->'" + "'->'".join(keys[:-1]) + f"'->>'{keys[-1]}'")
    )
    cast = {"int": "::bigint", "float": "::float", "text": ""}[kind]
    return f"({text}){cast}"


def _sqlite(path: str, kind: str, column: str) -> str:
    return f"json_extract({column}, '{path}')"


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    read = _pg if vendor == "postgresql" else _sqlite
    record = "o.redaction_record"
    totals = ",\n    ".join(
        f"{read('$.totals.' + TOTAL_KEYS.get(name, name), 'int', record)} AS {name}"
        for name, _ in TOTALS
    )
    first_output = (
        "o.redaction_record->'outputs'->0->>'sha256'"
        if vendor == "postgresql"
        else "json_extract(o.redaction_record, '$.outputs[0].sha256')"
    )
    outputs = (
        "jsonb_array_length(o.redaction_record->'outputs')"
        if vendor == "postgresql"
        else "json_array_length(o.redaction_record, '$.outputs')"
    )
    schema_editor.execute(
        f"CREATE VIEW {RECORDS} AS\nSELECT\n    o.id AS order_id,\n"
        "    o.processed_at AS processed_at,\n    o.owner_id AS owner_id,\n"
        "    o.deleted_at AS deleted_at,\n"
        f"    {outputs} AS outputs,\n    {first_output} AS output_sha256,\n"
        f"    {totals}\nFROM orders_transformationorder o\n"
        "WHERE o.redaction_record IS NOT NULL"
    )
    if vendor == "postgresql":
        rows = "CROSS JOIN LATERAL jsonb_array_elements(o.redaction_record->'areas') a"
        value = "a.value"
    else:
        rows = "JOIN json_each(o.redaction_record, '$.areas') a"
        value = "a.value"
    columns = ",\n    ".join(
        f"{read(path, kind, value)} AS {name}" for name, path, kind, _ in AREA_COLUMNS
    )
    schema_editor.execute(
        f"CREATE VIEW {AREAS} AS\nSELECT\n    o.id AS order_id,\n"
        f"    o.processed_at AS processed_at,\n    {columns}\n"
        f"FROM orders_transformationorder o {rows}\n"
        "WHERE o.redaction_record IS NOT NULL"
    )
    if vendor != "postgresql":
        return
    quote = schema_editor.quote_value
    comments = {
        RECORDS: (
            "One row per transformation order that redacted and ended PROCESSED: "
            "what its redaction removed, scrubbed and read back.",
            [
                ("order_id", "the order's id"),
                ("processed_at", "when it ended"),
                ("owner_id", "the owner (API key holder); null when auth is off"),
                ("deleted_at", "when the order was deleted; its record stays"),
                ("outputs", "outputs of the order"),
                ("output_sha256", "sha256 of the first output's file"),
                *TOTALS,
            ],
        ),
        AREAS: (
            "One row per area a transformation order redacted (rule matches and "
            "coordinates), with what it removed. Removed text as keyed hashes only.",
            [
                ("order_id", "the order's id"),
                ("processed_at", "when it ended"),
                *[(name, comment) for name, _, _, comment in AREA_COLUMNS],
            ],
        ),
    }
    for view, (about, described) in comments.items():
        schema_editor.execute(f"COMMENT ON VIEW {view} IS {quote(about)}")
        for name, comment in described:
            schema_editor.execute(
                f"COMMENT ON COLUMN {view}.{name} IS {quote(comment)}"
            )


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP VIEW IF EXISTS {AREAS}")
    schema_editor.execute(f"DROP VIEW IF EXISTS {RECORDS}")


class Migration(migrations.Migration):
    dependencies = [("orders", "0015_redaction_record")]

    operations = [migrations.RunPython(create, drop)]
