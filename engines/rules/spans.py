"""Where a rule matches in a text: spans of the original text, found on its
folded form exactly as search folds it (`engines.pdf.text.folding`).

Exact text folds case and accents unless asked not to; a regex runs on
compatibility-folded text with the search's time limit; a preset runs on
compatibility-folded text and keeps only what its check accepts.
"""

from __future__ import annotations

import unicodedata
from array import array

import regex

from engines.errors import SearchError
from engines.pdf.text.folding import Fold, Folded, fold_pattern, fold_text
from engines.pdf.types import SearchQuery
from engines.rules.presets import PRESETS, hit_span
from engines.rules.types import Rule

# Presets read digits and letters as written, compatibility forms folded.
PRESET_FOLD = Fold(casefold=False, strip_marks=False, compose=True)

Span = tuple[int, int]


def fold_of(rule: Rule) -> Fold:
    """The fold a rule's text is searched in."""
    query = _query(rule)
    if rule.kind == "text":
        return Fold.for_plain(query)
    if rule.kind == "regex":
        return Fold.for_regex(query)
    return PRESET_FOLD


def _query(rule: Rule) -> SearchQuery:
    return SearchQuery(
        rule.value,
        case_sensitive=rule.case_sensitive,
        accent_sensitive=rule.accent_sensitive,
        regex=rule.kind == "regex",
    )


def compile_rule(rule: Rule) -> regex.Pattern[str] | str:
    """The folded needle of a text rule, or the compiled pattern of a regex
    or preset; `SearchError` for a bad pattern or an unknown preset."""
    if rule.kind == "text":
        needle = fold_text(rule.value, fold_of(rule)).text
        if not needle.strip():
            raise SearchError("the text of a rule must not be blank")
        return needle
    if rule.kind == "preset":
        preset = PRESETS.get(rule.value)
        if preset is None:
            raise SearchError(
                f"unknown preset {rule.value!r}; known: {', '.join(PRESETS)}"
            )
        return preset.pattern
    flags = 0 if rule.case_sensitive else regex.IGNORECASE | regex.FULLCASE
    try:
        return regex.compile(fold_pattern(rule.value, fold_of(rule)), flags)
    except regex.error as exc:
        raise SearchError(f"invalid regular expression: {exc}") from exc


def spans(
    rule: Rule,
    compiled: regex.Pattern[str] | str,
    text: str,
    folded: Folded | None = None,
    *,
    timeout: float,
) -> list[Span]:
    """The spans of `text` (original offsets, in order, not overlapping) where
    `rule` matches; `folded` is `text` in `fold_of(rule)` when already made.
    `SearchError` when a pattern runs past `timeout` seconds."""
    folded = folded if folded is not None else quick_fold(text, fold_of(rule))
    if isinstance(compiled, str):
        found = _plain(folded.text, compiled)
    else:
        found = _patterned(rule, compiled, folded.text, timeout)
    out: list[Span] = []
    for start, end in found:
        span = _original(text, folded, start, end)
        if not out or span[0] >= out[-1][1]:
            out.append(span)
    return out


# White space that folding would change: runs, leading, other than a space.
_UNEVEN_SPACE = regex.compile(r"\s\s|[^\S ]|^\s")


def quick_fold(text: str, fold: Fold) -> Folded:
    """`fold_text(text, fold)`, made at once for plain ASCII text with single
    spaces (most pages): its folded form is itself, lower-cased when case is
    folded, each character its own origin."""
    if not text.isascii() or _UNEVEN_SPACE.search(text):
        return fold_text(text, fold)
    return Folded(
        text=text.lower() if fold.casefold else text,
        origin=array("l", range(len(text))),
        emits=b"\x01" * len(text),
    )


def _plain(folded: str, needle: str) -> list[Span]:
    found = []
    start = folded.find(needle)
    while start >= 0:
        end = start + len(needle)
        if _splits_letter(folded, start, end):
            start = folded.find(needle, start + 1)
            continue
        found.append((start, end))
        start = folded.find(needle, end)
    return found


def _patterned(
    rule: Rule, pattern: regex.Pattern[str], folded: str, timeout: float
) -> list[Span]:
    preset = PRESETS.get(rule.value) if rule.kind == "preset" else None
    found: list[Span] = []
    try:
        for match in pattern.finditer(
            folded,
            timeout=timeout,
            concurrent=True,
            overlapped=preset is not None and preset.overlapped,
        ):
            if preset is None:
                span: Span | None = match.span()
            elif preset.check(match):
                span = hit_span(preset, match)
            else:
                span = None
            if span is None or span[1] <= span[0]:
                continue
            if _splits_letter(folded, *span):
                continue
            found.append(span)
    except TimeoutError as exc:
        raise SearchError(
            f"a redaction rule ({rule.label}) took longer than {timeout:g} s on "
            "one text; simplify it"
        ) from exc
    return found


def _splits_letter(folded: str, start: int, end: int) -> bool:
    """Whether [start, end) cuts a letter from its accents (as search)."""
    return unicodedata.category(folded[start]) == "Mn" or (
        end < len(folded) and unicodedata.category(folded[end]) == "Mn"
    )


def _original(text: str, folded: Folded, start: int, end: int) -> Span:
    """Folded [start, end) → original [start, end), marks after the last
    letter included (as search maps them)."""
    first = folded.origin[start]
    stop = folded.origin[end - 1] + 1
    while stop < len(text) and not folded.emits[stop] and not text[stop].isspace():
        stop += 1
    return first, stop
