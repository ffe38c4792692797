"""Redaction rules: find what to redact by what it is, not where it is.

A rule is exact text (folded as search folds it), a regular expression (with
search's time limit) or a preset for common personal data (`presets`: e-mail,
phone, IBAN, payment card, US SSN, French NIR, Dutch BSN, German tax id,
IPv4, IPv6, date of birth, URL), each checked by its check digits or rules
(`checks`). `find_matches` reads a PDF's pages (text and OCR layers, what
annotations and fields draw), its form values, its annotations' texts and its
metadata, and answers every match with a stable id; the order turns them into
redaction areas (a page's glyphs, a whole field) and into words scrubbed from
the rest of the document.

Pure: no Django, no app. Pages count from 0; boxes are displayed-page space.
Layout: `types` (rules, matches, ids, errors), `presets` and `checks` (the
table of presets and their validators), `spans` (a rule on one text, folded as
search folds it), `readings` (a page's text with values broken over two lines
joined), `attached` (the texts of attached files), `find` (a whole document).
"""

from engines.rules.find import find_matches
from engines.rules.presets import PRESETS
from engines.rules.spans import compile_rule, spans
from engines.rules.types import (
    AREA_TARGETS,
    TARGETS,
    Match,
    OutOfTime,
    Rule,
    RuleError,
    TooManyMatches,
    match_id,
)

__all__ = [
    "AREA_TARGETS",
    "PRESETS",
    "TARGETS",
    "Match",
    "OutOfTime",
    "Rule",
    "RuleError",
    "TooManyMatches",
    "compile_rule",
    "find_matches",
    "match_id",
    "spans",
]
