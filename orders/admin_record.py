"""The redaction record on an order's admin page: the totals in a sentence,
then one row per area (output page, rule or coordinates, what it removed),
the matches scrubbed outside any area, the hashes of inputs and outputs."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# Rows shown at most; the whole record downloads as JSON from the API.
MAX_ROWS = 200


def record_html(record: dict[str, Any] | None) -> SafeString:
    if not record:
        return mark_safe("—")
    totals = record.get("totals") or {}
    summary = format_html(
        "<p>{} areas ({} from rules): {} glyphs, {} images, {} paths, {} "
        "annotations, {} fields removed; {} strings, {} names, {} streams "
        "rewritten elsewhere; {} matches scrubbed outside any area; verified by "
        "reading {} objects back.</p>",
        *(
            totals.get(key, 0)
            for key in (
                "areas", "ruleAreas", "glyphs", "images", "paths", "annotations",
                "fields", "strings", "names", "streams", "scrubbedMatches",
                "objectsRead",
            )
        ),
    )  # fmt: skip
    areas = (record.get("areas") or [])[:MAX_ROWS]
    rows = format_html_join(
        mark_safe(""),
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
        (
            (
                a["output"],
                a["page"] + 1,
                a.get("ruleName") or "coordinates",
                a.get("target"),
                f"{a['x']:.0f}, {a['y']:.0f}, {a['w']:.0f} × {a['h']:.0f}",
                a["glyphs"],
                a["images"],
                a["paths"],
                a["annotations"],
                a["fields"],
                (a.get("textHmac") or "")[:16],
            )
            for a in areas
        ),
    )
    table = format_html(
        '<table class="redaction-areas"><thead><tr><th>output</th><th>page</th>'
        "<th>rule</th><th>in</th><th>box (pt)</th><th>glyphs</th><th>images</th>"
        "<th>paths</th><th>annotations</th><th>fields</th><th>text hash</th></tr>"
        "</thead><tbody>{}</tbody></table>",
        rows,
    )
    scrubbed = format_html_join(
        mark_safe(""),
        "<li>{} in {} ({})</li>",
        (
            (m["ruleName"], m["place"], m["target"])
            for m in (record.get("scrubbedMatches") or [])[:MAX_ROWS]
        ),
    )
    hashes = format_html_join(
        mark_safe(""),
        "<li>{} {}: <code>{}</code></li>",
        [
            *(
                ("input", i["documentId"], i["sha256"])
                for i in record.get("inputs") or []
            ),
            *(
                ("output", o["documentId"], o["sha256"])
                for o in record.get("outputs") or []
            ),
        ],
    )
    return format_html(
        "{}{}<p>Scrubbed outside any area:</p><ul>{}</ul><p>sha256:</p><ul>{}</ul>",
        summary,
        table,
        scrubbed or mark_safe("<li>—</li>"),
        hashes,
    )


def operations_html(order: Any) -> SafeString:
    """The operations an order applies, and for each output what they did:
    names that ran, Bates and page numbers given, numbers moved off a
    redaction area, what sanitize removed (pages from 1)."""
    rows = []
    for n, result in enumerate(order.operation_results or [], start=1):
        facts = [", ".join(result.get("ran") or []) or "nothing"]
        for key, label in (("bates", "Bates"), ("pageNumbers", "page numbers")):
            numbers = result.get(key)
            if numbers:
                facts.append(f"{label} {numbers['first']} to {numbers['last']}")
        if result.get("moved"):
            facts.append("moved off redactions on pages " + _pages(result["moved"]))
        if result.get("notDrawn"):
            facts.append(
                "not drawn (no free place) on pages " + _pages(result["notDrawn"])
            )
        if result.get("removed"):
            facts.append(
                "removed "
                + ", ".join(f"{n} × {kind}" for kind, n in result["removed"].items())
            )
        rows.append((n, "; ".join(facts)))
    head = format_html("<p>Applied: {}</p>", order.operations.replace(",", ", "))
    if not rows:
        return format_html("{}<p>(the order has not ended)</p>", head)
    return format_html(
        "{}<table><tr><th>output</th><th>what its operations did</th></tr>{}</table>",
        head,
        format_html_join("", "<tr><td>{}</td><td>{}</td></tr>", rows),
    )


def _pages(pages: list[int]) -> str:
    return ", ".join(str(page) for page in pages[:20]) + (
        " …" if len(pages) > 20 else ""
    )
