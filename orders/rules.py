"""Redaction rules on the wire (`redactionRules`, `acceptedMatches`: additions)
and the matches a dry run answers.

A rule is `{"text": "Acme", "caseSensitive": false, "accentSensitive": false}`,
`{"regex": "..."}` or `{"preset": "email"}`, each with an optional
`overlayText` (drawn inside its boxes) or `reason` (a code of
`/annotation/policy`, drawn when no overlayText is given).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import serializers

from engines.errors import SearchError
from engines.rules import PRESETS, Match, Rule, compile_rule, spans
from orders.annotations import OVERLAY_LIMIT, check_reason
from transformsvc.conf import service
from transformsvc.strict import RejectsUnknownFields

MAX_RULES = 100
MAX_ACCEPTED = 100_000
_KINDS = ("text", "regex", "preset")


class StringField(serializers.CharField):
    """A JSON string and nothing else: `123` is not the text "123" (a client
    that sent a number meant something this field cannot redact)."""

    default_error_messages = {"not_string": "must be a string"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_string")
        return str(super().to_internal_value(data))


class RuleSerializer(RejectsUnknownFields):
    text = StringField(required=False, max_length=1000, trim_whitespace=False)
    regex = StringField(required=False, max_length=1000, trim_whitespace=False)
    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False)
    caseSensitive = serializers.BooleanField(required=False, default=False)
    accentSensitive = serializers.BooleanField(required=False, default=False)
    overlayText = StringField(
        required=False, allow_null=True, allow_blank=True, max_length=OVERLAY_LIMIT
    )
    reason = StringField(required=False, allow_null=True, allow_blank=True)

    def validate_reason(self, value: str | None) -> str | None:
        return check_reason(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [kind for kind in _KINDS if attrs.get(kind) is not None]
        if len(given) != 1:
            raise serializers.ValidationError(
                "give exactly one of text, regex or preset"
            )
        kind = given[0]
        try:
            compile_rule(rule_of(attrs))
        except SearchError as exc:
            raise serializers.ValidationError({kind: [str(exc)]}) from exc
        return attrs


def rule_of(data: dict[str, Any]) -> Rule:
    """A validated rule's wire form → the engine's `Rule`."""
    kind = next(kind for kind in _KINDS if data.get(kind) is not None)
    return Rule(
        kind=kind,
        value=data[kind],
        case_sensitive=bool(data.get("caseSensitive")),
        accent_sensitive=bool(data.get("accentSensitive")),
        overlay_text=data.get("overlayText") or data.get("reason") or None,
    )


def overlay_faults(
    rules: Sequence[Rule], overlays: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """Overlay texts (field path, text) that one of the order's rules would
    match: drawn in the box, they would show what the order redacts."""
    faults: dict[str, str] = {}
    for where, text in overlays:
        for number, rule in enumerate(rules):
            try:
                hit = spans(
                    rule, compile_rule(rule), text, timeout=service().regex_timeout
                )
            except SearchError:
                continue  # the rule's own fault is named where it is
            if hit:
                faults[where] = (
                    f"would show what redactionRules[{number}] redacts; "
                    "choose another text"
                )
                break
    return faults


def match_wire(
    document_id: str, match: Match, rule: Rule, text: str | None, digest: str | None
) -> dict[str, Any]:
    """One match as a dry run answers it; `text` or its keyed hash `digest`."""
    return {
        "id": match.id,
        "documentId": {"id": document_id},
        "page": match.page,
        "target": match.target,
        "place": match.place,
        "rule": match.rule,
        "ruleName": rule.label,
        "coords": [{"x": b.x, "y": b.y, "w": b.w, "h": b.h} for b in match.boxes],
        **({"text": text} if text is not None else {"textHmac": digest}),
    }
