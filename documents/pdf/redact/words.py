"""The redacted text as one search pattern, and its removal from other texts.

What redaction removed is recorded as `Removed` runs: the glyphs under an area,
not the white-space token they sit in, so that `Acme` cut out of `Acme's` or
`Client:Acme` is scrubbed wherever `Acme` is written, and nothing else is.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import regex

from documents.pdf.glyphs import has_right_to_left

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
    builds it for its fields, its sweep and its check."""
    variants: dict[tuple[str, bool, bool], None] = {}
    for run in runs:
        token = unicodedata.normalize("NFKC", run.text).strip(TRIM)
        if not any(ch.isalnum() for ch in token):
            continue
        variants[(token, run.starts_word, run.ends_word)] = None
        if has_right_to_left(token):
            # Extraction may give right-to-left words in visual order.
            variants[(token[::-1], run.ends_word, run.starts_word)] = None
    if not variants:
        return None
    alternatives = [
        _alternative(*variant)
        for variant in sorted(variants, key=lambda v: len(v[0]), reverse=True)
    ]
    return regex.compile(
        "|".join(alternatives), regex.IGNORECASE | regex.FULLCASE | regex.V1
    )


def _alternative(token: str, starts_word: bool, ends_word: bool) -> str:
    head = r"(?<![\p{L}\p{N}])" if starts_word and spaced(token[0]) else ""
    tail = r"(?![\p{L}\p{N}])" if ends_word and spaced(token[-1]) else ""
    return head + regex.escape(token) + tail


def spaced(char: str) -> bool:
    """Whether `char` is a letter or digit of a script that spaces its words."""
    name = unicodedata.name(char, "")
    return char.isalnum() and not name.startswith(_UNSPACED_SCRIPTS)


def scrub_text(text: str, pattern: regex.Pattern[str]) -> str | None:
    """`text` without the words, spaces tidied; None when nothing matched."""
    normal = unicodedata.normalize("NFKC", text)
    if not pattern.search(normal):
        return None
    return regex.sub(r"[ \t]{2,}", " ", pattern.sub("", normal)).strip()
