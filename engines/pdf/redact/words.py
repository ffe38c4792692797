"""The redacted text as one search pattern, and its removal from other texts.

What redaction removed is recorded as `Removed` runs: the glyphs under an area,
not the white-space token they sit in, so that `Acme` cut out of `Acme's` or
`Client:Acme` is scrubbed wherever `Acme` is written, and nothing else is.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import regex

from engines.pdf.glyphs import has_right_to_left

# Scripts written without spaces between words: their words cannot be matched
# with word boundaries.
_UNSPACED_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")
TRIM = "\"'“”‘’«»()[]{}<>.,;:!?¡¿…-–—/\\|*·"


@dataclass(frozen=True, slots=True)
class Removed:
    """A run of removed glyphs, outer punctuation trimmed.

    `starts_word`/`ends_word`: the run begins/ends where a word does on the page
    (no letter or digit was kept right before/after it), so it is matched
    elsewhere as a whole word at that end. A run cut out of a word (`cme` of
    `Acme`) is matched inside words at the open end.
    """

    text: str
    starts_word: bool = True
    ends_word: bool = True

    @classmethod
    def of(cls, token: str, start: int, end: int) -> Removed | None:
        """The run `token[start:end]` of a white-space token, trimmed; None when
        no letter or digit is left."""
        while start < end and token[start] in TRIM:
            start += 1
        while end > start and token[end - 1] in TRIM:
            end -= 1
        text = token[start:end]
        if not any(ch.isalnum() for ch in text):
            return None
        return cls(
            text,
            starts_word=start == 0 or not word_char(token[start - 1]),
            ends_word=end == len(token) or not word_char(token[end]),
        )


def word_char(char: str) -> bool:
    """A letter, digit or combining mark: a character words are made of."""
    return unicodedata.category(char)[0] in "LNM"


def merged(runs: Iterable[Removed | str]) -> list[Removed]:
    """`runs` without repeats, in order; a text seen both as a whole word and cut
    out of one is kept open at that end (the wider match)."""
    out: dict[str, Removed] = {}
    for run in runs:
        item = Removed(run) if isinstance(run, str) else run
        seen = out.get(item.text)
        if seen is not None:
            item = Removed(
                item.text,
                starts_word=seen.starts_word and item.starts_word,
                ends_word=seen.ends_word and item.ends_word,
            )
        out[item.text] = item
    return list(out.values())


def words_pattern(removed: Iterable[Removed | str]) -> regex.Pattern[str] | None:
    """One pattern for all the removed runs (NFKC, outer punctuation trimmed),
    matched case-insensitively; as whole words at the ends where the run was a
    word's end, except in scripts written without spaces. A plain string is a
    whole word. None when no run is left."""
    return _compiled(tuple(merged(removed)))


@functools.lru_cache(maxsize=64)
def _compiled(runs: tuple[Removed, ...]) -> regex.Pattern[str] | None:
    """The pattern of `words_pattern`, made once per set of runs: one order
    builds it for its fields, its sweep and its check.

    Runs are grouped by which of their ends must be a word's end; each group
    is one alternation factored into a tree of common prefixes, so that a
    hundred runs (a zone over a form's header) match in one pass.
    """
    groups: dict[tuple[bool, bool], set[str]] = {}
    for run in runs:
        token = _FORMAT.sub("", unicodedata.normalize("NFKC", run.text)).strip(TRIM)
        if not any(ch.isalnum() for ch in token):
            continue
        variants = [(token, run.starts_word, run.ends_word)]
        if has_right_to_left(token):
            # Extraction may give right-to-left words in visual order.
            variants.append((token[::-1], run.ends_word, run.starts_word))
        for text, head, tail in variants:
            key = (head and spaced(text[0]), tail and spaced(text[-1]))
            groups.setdefault(key, set()).add(text.casefold())
    if not groups:
        return None
    parts = [
        (r"(?<![\p{L}\p{N}])" if head else "")
        + _tree(sorted(texts))
        + (r"(?![\p{L}\p{N}])" if tail else "")
        for (head, tail), texts in sorted(groups.items())
    ]
    pattern = regex.compile(
        "|".join(parts), regex.IGNORECASE | regex.FULLCASE | regex.V1
    )
    # The same tree on case-folded text, for the standard library's engine:
    # most texts hold no word, and it tells so ten times faster.
    _PROBES[pattern] = re.compile(
        "|".join(
            (r"(?<![^\W_])" if head else "")
            + _tree(sorted(texts), re.escape)
            + (r"(?![^\W_])" if tail else "")
            for (head, tail), texts in sorted(groups.items())
        )
    )
    return pattern


_PROBES: dict[regex.Pattern[str], re.Pattern[str]] = {}


def holds(text: str, pattern: regex.Pattern[str]) -> bool:
    """Whether `text` (normalised or not) holds a word of `pattern`."""
    probe = _PROBES.get(pattern)
    if probe is None:
        return pattern.search(normalised(text)) is not None
    return probe.search(normalised(text).casefold()) is not None


# Format characters (soft hyphens, zero-width spaces and joiners, bidi marks):
# readers do not show them, so a word split by one is still the word.
_FORMAT = regex.compile(r"\p{Cf}+")


def _tree(texts: list[str], escape: Callable[[str], str] = regex.escape) -> str:
    """`texts` as one alternation, common prefixes factored out."""
    root: dict[str, Any] = {}
    for text in texts:
        node = root
        for char in text:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, Any]) -> str:
        options = [escape(c) + branch(node[c]) for c in sorted(node) if c]
        if not options:
            return ""
        body = options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"
        return f"(?:{body})?" if "" in node else body

    return branch(root)


def spaced(char: str) -> bool:
    """Whether `char` is a letter or digit of a script that spaces its words."""
    name = unicodedata.name(char, "")
    return char.isalnum() and not name.startswith(_UNSPACED_SCRIPTS)


def normalised(text: str) -> str:
    """`text` as it is matched: NFKC, without format characters."""
    return _FORMAT.sub("", unicodedata.normalize("NFKC", text))


def scrub_text(text: str, pattern: regex.Pattern[str]) -> str | None:
    """`text` without the words, spaces tidied; None when nothing matched."""
    normal = normalised(text)
    if not holds(normal, pattern):
        return None
    return regex.sub(r"[ \t]{2,}", " ", pattern.sub("", normal)).strip()
