"""An order's redaction rules applied to its documents: the same matches for
a dry run (answered at once) and for the order's worker, which redacts them.

Pages count from 0 of each source document; boxes are displayed space.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from engines.errors import EngineError
from engines.pdf.redact import Removed
from engines.pdf.types import Annotation
from engines.rules import Match, find_matches
from orders.specs import OrderSpec
from transformsvc.conf import service

# Matches keyed by source document id, in page order.
Found = dict[str, list[Match]]
# Matches an order's rules may find in all: as many as it may accept. A
# pattern that takes every letter would otherwise list millions while the
# client waits for its dry run.
MAX_MATCHES = 100_000


def matches_of(
    spec: OrderSpec,
    paths: Mapping[str, Path],
    pages: Mapping[str, list[int]],
    deadline: float | None = None,
) -> Found:
    """Every match of the order's rules on the pages it reads (`pages`, by
    document), then in each document's own strings. `TooManyMatches` (naming
    a rule) past `MAX_MATCHES` in all; `OutOfTime` past `deadline`
    (`time.monotonic()`)."""
    if not spec.redaction_rules:
        return {}
    found: Found = {}
    left = MAX_MATCHES
    for key in sorted(paths):
        if key not in spec.document_ids:
            continue
        found[key] = find_matches(
            str(paths[key]),
            spec.redaction_rules,
            document_key=key,
            pages=pages.get(key, []),
            timeout=service().regex_timeout,
            limit=left,
            attachments=spec.keep_attachments,
            deadline=deadline,
        )
        left -= len(found[key])
    return found


def accepted(spec: OrderSpec, found: Found) -> Found:
    """The matches the order redacts: all, or those its `acceptedMatches`
    names. An accepted id that is no longer found fails the order: what the
    reviewer saw is not what would be redacted."""
    if spec.accepted_matches is None:
        return found
    wanted = set(spec.accepted_matches)
    kept = {
        key: [m for m in matches if m.id in wanted] for key, matches in found.items()
    }
    missing = wanted - {m.id for matches in kept.values() for m in matches}
    if missing:
        raise EngineError(
            f"accepted match {sorted(missing)[0]} was not found again: the "
            "documents or the rules differ from the dry run's"
        )
    return kept


def redactions_of(spec: OrderSpec, found: Found) -> list[Annotation]:
    """The areas of page and field matches as text redactions of their source
    page (id: the match's id), with their rule's overlay text."""
    rules = spec.redaction_rules
    return [
        Annotation(
            kind="RedactTextElemType",
            document_key=key,
            page=match.page,
            annotation_id=match.id,
            coords=match.boxes,
            overlay_text=rules[match.rule].overlay_text,
        )
        for key, matches in found.items()
        for match in matches
        if match.is_area and match.page is not None
    ]


def scrubbed_of(found: Found) -> dict[str, tuple[Removed, ...]]:
    """Every matched text, by document: its copies anywhere in the output
    (metadata, annotation texts, form values, other strings) go too."""
    return {
        key: tuple(Removed(m.text, m.starts_word, m.ends_word) for m in matches)
        for key, matches in found.items()
    }


@cache
def _key() -> bytes:
    """The key of records' text hashes, derived from SECRET_KEY (never
    SECRET_KEY itself, so a leaked hash says nothing of it)."""
    return hmac.new(
        settings.SECRET_KEY.encode("utf-8"),
        b"transformsvc redaction record text hash v1",
        hashlib.sha256,
    ).digest()


def text_hmac(text: str) -> str:
    """HMAC-SHA256 (hex) of `text` NFKC-normalised, case-folded, without
    white space: the same word removed twice hashes the same."""
    normal = "".join(unicodedata.normalize("NFKC", text).casefold().split())
    return hmac.new(_key(), normal.encode("utf-8"), hashlib.sha256).hexdigest()


def forgotten_texts(
    request: dict[str, Any], spec_json: dict[str, Any] | None
) -> dict[str, Any]:
    """The order's stored request and spec with the text of its text and regex
    rules replaced by keyed hashes: once it has redacted them, the service
    keeps no clear copy of the words (a failed order keeps them, so that it
    can be retried). Nothing when it has no such rule."""
    rules = request.get("redactionRules") or []
    if not any("text" in r or "regex" in r for r in rules):
        return {}
    echoed = [
        {
            **{k: v for k, v in rule.items() if k not in ("text", "regex")},
            **{f"{k}Hmac": text_hmac(rule[k]) for k in ("text", "regex") if k in rule},
        }
        for rule in rules
    ]
    fields: dict[str, Any] = {"request": {**request, "redactionRules": echoed}}
    if spec_json is not None:
        fields["spec_json"] = {
            **spec_json,
            "redaction_rules": [
                {**rule, "value": "hmac:" + text_hmac(rule["value"])}
                if rule.get("kind") in ("text", "regex")
                else rule
                for rule in spec_json.get("redaction_rules") or []
            ],
        }
    return fields
