"""The removed runs as the verifier looks for them: its own folding and word ends.

Text is compared NFKC-folded and case-folded, without format characters (soft
hyphens, zero-width spaces and joiners, bidi marks), which readers do not show
and which would otherwise hide a word from a plain comparison.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import regex

_FORMAT = regex.compile(r"\p{Cf}+")
# Scripts written without spaces between words: no word ends to test there.
_UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")
_TRIM = "\"'“”‘’«»()[]{}<>.,;:!?¡¿…-–—/\\|*· \t\r\n"


@dataclass(frozen=True, slots=True)
class Run:
    """A run of text that redaction removed from a page.

    `starts_word`/`ends_word`: the run began/ended where a word did on the
    page, so it is looked for as a whole word at that end; a run cut out of a
    word (`cme` of `Acme`) is looked for inside words at the open end.
    """

    text: str
    starts_word: bool = True
    ends_word: bool = True


def fold(text: str) -> str:
    """`text` as compared: NFKC, no format characters, case-folded."""
    text = _FORMAT.sub("", unicodedata.normalize("NFKC", text))
    return unicodedata.normalize("NFKC", text.casefold())


class Needles:
    """One pattern for every removed run (see `fold`).

    Runs are grouped by which of their ends must be a word's end, and each
    group is one alternation factored into a tree of common prefixes: a
    hundred runs (a zone over a form's header) then match in one pass, where
    a plain alternation costs a pass per run.
    """

    def __init__(self, runs: Iterable[Run]) -> None:
        groups: dict[tuple[bool, bool], set[str]] = {}
        for run in runs:
            token = fold(run.text).strip(_TRIM)
            if not any(char.isalnum() for char in token):
                continue
            variants = [(token, run.starts_word, run.ends_word)]
            if any(unicodedata.bidirectional(c) in ("R", "AL") for c in token):
                # Right-to-left words may be stored in visual order.
                variants.append((token[::-1], run.ends_word, run.starts_word))
            for text, head, tail in variants:
                key = (head and _spaced(text[0]), tail and _spaced(text[-1]))
                groups.setdefault(key, set()).add(text)
        parts = [
            (_HEAD if head else "")
            + _alternation(sorted(texts))
            + (_TAIL if tail else "")
            for (head, tail), texts in sorted(groups.items())
        ]
        self._pattern = re.compile("|".join(parts)) if parts else None
        self.empty = self._pattern is None

    def count(self, text: str) -> int:
        """How many times a run occurs in `text`."""
        if self._pattern is None or not text:
            return 0
        return sum(1 for _ in self._pattern.finditer(fold(text)))

    def matches(self, text: str) -> set[str]:
        """The runs (folded, as matched) that occur in `text`."""
        if self._pattern is None or not text:
            return set()
        return {match[0] for match in self._pattern.finditer(fold(text))}

    def found(self, text: str) -> bool:
        return (
            self._pattern is not None
            and bool(text)
            and self._pattern.search(fold(text)) is not None
        )


# A word character: a letter, a digit or a combining mark (not "_").
_HEAD = r"(?<![^\W_])(?<![\u0300-\u036f])"
_TAIL = r"(?![^\W_])(?![\u0300-\u036f])"


def _alternation(texts: list[str]) -> str:
    """`texts` as one regular expression, common prefixes factored out."""
    tree: dict[str, Any] = {}
    for text in texts:
        node = tree
        for char in text:
            node = node.setdefault(char, {})
        node[""] = {}
    return _branch(tree)


def _branch(node: dict[str, Any]) -> str:
    options = []
    ends = "" in node
    for char in sorted(key for key in node if key):
        options.append(re.escape(char) + _branch(node[char]))
    if not options:
        return ""
    body = options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"
    if ends:
        return "(?:" + body + ")?"
    return body


def _spaced(char: str) -> bool:
    return char.isalnum() and not unicodedata.name(char, "").startswith(_UNSPACED)
