"""Searchable forms of text: compatibility forms, case and accents folded.

A folded text keeps, per folded character, the index of the character it came
from, so that a match in folded text maps back onto the original.
"""

from __future__ import annotations

import unicodedata
from array import array
from dataclasses import dataclass

import numpy as np
import regex

from engines.pdf.types import SearchQuery


@dataclass(frozen=True, slots=True)
class Folded:
    """Folded page text and, per folded character, the index of its original one."""

    text: str
    origin: array[int]
    emits: bytes  # per original character: 1 if it produced folded text


@dataclass(frozen=True, slots=True)
class Fold:
    """How text is made searchable. Compatibility forms are always folded."""

    casefold: bool
    strip_marks: bool
    # Plain search compares decomposed text (so a PDF's "e" + U+0301 equals "é");
    # regex search compares composed text, so that a class like [éè] still sees
    # one character per accented letter.
    compose: bool = False

    @classmethod
    def for_plain(cls, query: SearchQuery) -> Fold:
        return cls(not query.case_sensitive, not query.accent_sensitive)

    @classmethod
    def for_regex(cls, query: SearchQuery) -> Fold:
        # Case is left to the regex engine (FULLCASE: ß ~ SS), so that classes such
        # as [A-Z] keep their meaning when the search is case sensitive.
        return cls(False, not query.accent_sensitive, compose=True)


def _fold_char(char: str, fold: Fold) -> str:
    """The searchable form of one character (possibly several, possibly none)."""
    return _table(fold)[char]


def _folded_char(char: str, fold: Fold) -> str:
    folded = unicodedata.normalize("NFKD", char)
    if fold.casefold:
        folded = unicodedata.normalize("NFKD", folded.casefold())
    kept: list[str] = []
    for part in folded:
        category = unicodedata.category(part)
        if category == "Cf" or (fold.strip_marks and category == "Mn"):
            continue  # soft hyphens, bidi and zero-width marks; accents if asked
        kept.append(" " if part.isspace() else part)
    joined = "".join(kept)
    return unicodedata.normalize("NFC", joined) if fold.compose else joined


class _FoldTable(dict[str, str]):
    """Character → its searchable form under one fold, filled as characters are
    met. A plain dict per fold: a page is some 2,000 look-ups, and a cache keyed by
    (character, fold) hashed the dataclass in Python for each of them."""

    MAX_ENTRIES = 65536

    def __init__(self, fold: Fold) -> None:
        super().__init__()
        self.fold = fold

    def __missing__(self, char: str) -> str:
        value = _folded_char(char, self.fold)
        if len(self) < self.MAX_ENTRIES:
            self[char] = value
        return value


_SPACE = ord(" ")
_TABLES: dict[Fold, _FoldTable] = {}  # at most 8: one per combination of options


def _table(fold: Fold) -> _FoldTable:
    table = _TABLES.get(fold)
    if table is None:
        table = _TABLES.setdefault(fold, _FoldTable(fold))
    return table


def fold_text(text: str, fold: Fold) -> Folded:
    """`text` folded, whitespace runs made one space, mapped back to `text`."""
    table = _table(fold)
    return _fold_whole(text, table, fold.compose) or _fold_each(text, table, fold)


def _fold_whole(text: str, table: _FoldTable, compose: bool) -> Folded | None:
    """`_fold_each`'s result for a text whose every character folds to exactly
    one character that joins no mark before it, computed on the whole text at
    once (a page of ordinary text; a tenth of the time); None for another text."""
    mapping: dict[int, str] = {}
    for char in set(text):
        part = table[char]
        if len(part) != 1 or (compose and unicodedata.combining(part)):
            return None
        mapping[ord(char)] = part
    if not text:
        return Folded(text="", origin=array("l"), emits=b"")
    codes = np.frombuffer(text.translate(mapping).encode("utf-32-le"), np.uint32)
    space = codes == _SPACE
    # A space is kept after a kept character only: leading spaces and the rest
    # of a run are dropped.
    after_space = np.empty_like(space)
    after_space[0] = True
    after_space[1:] = space[:-1]
    keep = ~(space & after_space)
    return Folded(
        text=codes[keep].tobytes().decode("utf-32-le"),
        origin=array("l", np.flatnonzero(keep).tolist()),
        emits=keep.astype(np.uint8).tobytes(),
    )


def _fold_each(text: str, table: _FoldTable, fold: Fold) -> Folded:
    """`text` folded character by character: a character may fold to several,
    to none, or (composing) join the one before."""
    compose = fold.compose
    out: list[str] = []
    origin: array[int] = array("l")
    emits = bytearray(len(text))
    previous_space = True  # leading whitespace never matters
    for index, char in enumerate(text):
        for part in table[char]:
            if compose and out and unicodedata.combining(part):
                # A mark drawn as its own character ("e" + U+0301) joins its letter.
                merged = unicodedata.normalize("NFC", out[-1] + part)
                if len(merged) == 1:
                    out[-1] = merged
                    continue
            if part == " ":
                if previous_space:
                    continue
                previous_space = True
            else:
                previous_space = False
            out.append(part)
            origin.append(index)
            emits[index] = 1
    return Folded(text="".join(out), origin=origin, emits=bytes(emits))


def fold_pattern(pattern: str, fold: Fold) -> str:
    """Fold the literal characters of a regex like the page text, keeping its syntax.

    A non-ASCII character (é, ﬁ, fullwidth punctuation) is replaced by its folded
    form escaped, so `（` stays a literal and never opens a group.
    """
    out: list[str] = []
    for char in pattern:
        # ASCII characters fold to themselves, so the pattern's syntax is untouched.
        out.append(char if char.isascii() else regex.escape(_fold_char(char, fold)))
    return "".join(out)
