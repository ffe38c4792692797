"""The redacted words as one search pattern, and their removal from a text."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import regex

from documents.pdf.glyphs import has_right_to_left

# Scripts written without spaces between words: their words cannot be matched
# with word boundaries.
_UNSPACED_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR")
_TRIM = "\"'“”‘’«»()[]{}<>.,;:!?¡¿…-–—/\\|*·"


def words_pattern(removed: Iterable[str]) -> regex.Pattern[str] | None:
    """One pattern for all the `removed` words (NFKC, outer punctuation trimmed),
    matched case-insensitively and as whole words, except in scripts written
    without spaces; None when no word is left."""
    variants: set[str] = set()
    for word in removed:
        token = unicodedata.normalize("NFKC", word).strip(_TRIM)
        if not any(ch.isalnum() for ch in token):
            continue
        variants.add(token)
        if has_right_to_left(token):
            # Extraction may give right-to-left words in visual order.
            variants.add(token[::-1])
    if not variants:
        return None
    alternatives = [_alternative(v) for v in sorted(variants, key=len, reverse=True)]
    return regex.compile(
        "|".join(alternatives), regex.IGNORECASE | regex.FULLCASE | regex.V1
    )


def _alternative(token: str) -> str:
    head = r"(?<![\p{L}\p{N}])" if spaced(token[0]) else ""
    tail = r"(?![\p{L}\p{N}])" if spaced(token[-1]) else ""
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
