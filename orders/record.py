"""The redaction record an order keeps: per output page each area (a rule's
match or the client's coordinates) and what it removed, the copies scrubbed
elsewhere, what the verification read, and the sha256 of the inputs and of
the outputs. Removed text is never stored: a keyed hash at most
(`matching.text_hmac`). Read as JSON (`GET /transformations/<id>/redactions`),
in the admin, and in SQL (`redaction_record_report`, `redaction_area_report`).

Pages count from 0 (of the output, or of the source document for matches);
boxes are displayed space, points.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.pdf.types import AreaEvidence, RedactionEvidence
from engines.rules import Match
from orders.matching import Found, text_hmac
from orders.specs import OrderSpec

VERSION = 1
_COUNTS = ("glyphs", "images", "paths", "annotations", "fields")


@dataclass(frozen=True)
class OutputFacts:
    """One output as stored: its number, title, document id, file's sha256,
    pages, and the evidence of each redacted PDF in it (zip entry or None)."""

    number: int
    title: str | None
    document_id: str
    sha256: str
    pages: int
    evidence: tuple[tuple[int | None, RedactionEvidence], ...]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def record_of(
    spec: OrderSpec,
    found: Found,
    inputs: Sequence[dict[str, Any]],
    outputs: Sequence[OutputFacts],
) -> dict[str, Any] | None:
    """The record (JSON-ready), or None when no output redacted anything and
    the order has no rules (rules that found nothing keep a record saying so)."""
    if not any(output.evidence for output in outputs) and not spec.redaction_rules:
        return None
    matches = {m.id: (key, m) for key, ms in found.items() for m in ms}
    areas = [
        _area(output.number, entry, n, area, matches, spec)
        for output in outputs
        for entry, evidence in output.evidence
        for n, area in enumerate(evidence.areas)
    ]
    scrubbed = [
        _scrubbed(key, match, spec)
        for key, match in matches.values()
        if not match.is_area
    ]
    out = [_output(output) for output in outputs]
    totals = {name: sum(a[name] for a in areas) for name in _COUNTS}
    totals.update(
        areas=len(areas),
        ruleAreas=sum(1 for a in areas if a["source"] == "rule"),
        scrubbedMatches=len(scrubbed),
        **{
            name: sum(o["scrubbed"][name] for o in out)
            for name in ("strings", "names", "streams")
        },
        objectsRead=sum(o["verification"]["objects"] for o in out),
    )
    return {
        "version": VERSION,
        "verified": any(output.evidence for output in outputs),
        "rules": [
            {"rule": n, "ruleName": rule.label, "overlayText": rule.overlay_text}
            for n, rule in enumerate(spec.redaction_rules)
        ],
        "acceptedMatchesOnly": spec.accepted_matches is not None,
        "inputs": list(inputs),
        "outputs": out,
        "areas": areas,
        "scrubbedMatches": scrubbed,
        "totals": totals,
    }


def _area(
    output: int,
    entry: int | None,
    number: int,
    area: AreaEvidence,
    matches: dict[str, tuple[str, Match]],
    spec: OrderSpec,
) -> dict[str, Any]:
    found = matches.get(area.annotation_id or "")
    source: dict[str, Any]
    if found is not None:
        key, match = found
        source = {
            "source": "rule",
            "rule": match.rule,
            "ruleName": spec.redaction_rules[match.rule].label,
            "matchId": match.id,
            "target": match.target,
            "documentId": key,
            "sourcePage": match.page,
        }
    else:
        source = {
            "source": "coordinates",
            "rule": None,
            "ruleName": None,
            "matchId": None,
            "target": "page",
            "annotationId": area.annotation_id,
        }
    return {
        "output": output,
        "entry": entry,
        "page": area.page,
        "area": number,
        **source,
        "x": round(area.box.x, 3),
        "y": round(area.box.y, 3),
        "w": round(area.box.w, 3),
        "h": round(area.box.h, 3),
        **{name: getattr(area, name) for name in _COUNTS},
        "textHmac": area.text_hash,
        "overlayText": area.overlay,
    }


def _scrubbed(key: str, match: Match, spec: OrderSpec) -> dict[str, Any]:
    return {
        "matchId": match.id,
        "rule": match.rule,
        "ruleName": spec.redaction_rules[match.rule].label,
        "target": match.target,
        "place": match.place,
        "documentId": key,
        "sourcePage": match.page,
        "textHmac": text_hmac(match.text),
    }


def _output(output: OutputFacts) -> dict[str, Any]:
    strings = names = streams = 0
    read = {"pages": 0, "areas": 0, "objects": 0, "streams": 0, "runs": 0, "found": 0}
    readers: set[str] = set()
    for _, evidence in output.evidence:
        strings += evidence.scrubbed.strings
        names += evidence.scrubbed.names
        streams += evidence.scrubbed.streams
        check = evidence.verification
        readers.update(check.readers)
        for name in read:
            read[name] += getattr(check, name)
    return {
        "output": output.number,
        "title": output.title,
        "documentId": output.document_id,
        "sha256": output.sha256,
        "pages": output.pages,
        "scrubbed": {"strings": strings, "names": names, "streams": streams},
        "verification": {"readers": sorted(readers), **read},
    }
