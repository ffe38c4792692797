"""Redaction rules and their matches (frozen dataclasses, no Django).

Pages count from 0 (of the document searched); boxes are points in
displayed-page space, top-left origin of the page as displayed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from engines.errors import SearchError
from engines.pdf.types import Box

# What a rule matched in, and so how the match is redacted:
# - "page": glyphs on the page (text layer, OCR layer, appearances drawn on
#   it): its boxes are redacted as areas;
# - "field": a form field's value: the field goes (its widgets' boxes are
#   redacted as areas, the field leaves the form);
# - "annotation": the text of an annotation (contents, rich text, subject,
#   author) that the page does not show: scrubbed from it, and the
#   annotation redrawn from its scrubbed text or removed; its box is where
#   it sits, not an area;
# - "document": the document's metadata, XMP or outline: scrubbed; no page.
TARGETS = ("page", "field", "annotation", "document")
AREA_TARGETS = frozenset(("page", "field"))


@dataclass(frozen=True, slots=True)
class Rule:
    """One redaction rule: `kind` is "text" (exact text, folded as search
    folds it), "regex" (Python `regex` syntax, folded like search's regex) or
    "preset" (`value` names one of `PRESETS`). `overlay_text` is drawn inside
    the boxes its matches leave."""

    kind: str
    value: str
    case_sensitive: bool = False
    accent_sensitive: bool = False
    overlay_text: str | None = None

    @property
    def key(self) -> str:
        """What the rule finds, as canonical text (its matches' ids use it;
        the overlay does not change what is found)."""
        return json.dumps(
            [self.kind, self.value, self.case_sensitive, self.accent_sensitive]
        )

    @property
    def label(self) -> str:
        """How records name the rule without its text: `preset:email`,
        `text`, `regex`."""
        return f"preset:{self.value}" if self.kind == "preset" else self.kind


class RuleError(SearchError):
    """A rule that cannot run on a document's text (slower than the time
    limit): `rule` is its number in the order's list, `reason` the fault;
    the message names both, as a failed order shows it."""

    def __init__(self, rule: int, reason: str) -> None:
        super().__init__(f"redactionRules[{rule}]: {reason}")
        self.rule = rule
        self.reason = reason


class OutOfTime(SearchError):
    """The search ran past its deadline (a dry run answers while its client
    waits): fewer pages or rules can run."""

    code = "over_limit"


class TooManyMatches(RuleError):
    """Rule `rule` matched more often than an order may redact (a pattern
    that takes every letter): narrowed, it can run."""

    code = "over_limit"


@dataclass(frozen=True, slots=True)
class Match:
    """One match of rule number `rule` (0-based, in the order's list).

    `text` is the matched text as written (kept in memory only: records
    store a keyed hash); `offset` where it starts in the text searched;
    `place` names that text without quoting it ("page text", "field
    applicant.name", "annotation 12 /Contents", "metadata /Author").
    `starts_word`/`ends_word`: no letter or digit touches it at that end, so
    its copies elsewhere are scrubbed as a whole word at that end."""

    id: str
    rule: int
    target: str
    page: int | None
    boxes: tuple[Box, ...]
    text: str
    offset: int
    place: str
    starts_word: bool = True
    ends_word: bool = True

    @property
    def is_area(self) -> bool:
        return self.target in AREA_TARGETS


def match_id(
    document_key: str, rule: Rule, target: str, page: int | None, place: str, at: int
) -> str:
    """A match's id: the same for the same document, rule and place on every
    run (a dry run's ids name the matches of the real order); it names
    neither the text nor the document."""
    raw = "\x1f".join((document_key, rule.key, target, str(page), place, str(at)))
    return "m" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]
