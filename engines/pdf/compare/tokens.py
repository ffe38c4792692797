"""One side of a text diff: its pages' words, packed, and the tokens diffed.

Word rects are in PyMuPDF page space (unrotated); they reach displayed space only
in `position`, through `geometry`. Pages count from 0.
"""

from __future__ import annotations

import logging
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from engines.pdf.compare.fingerprint import Fingerprinter

logger = logging.getLogger(__name__)

# Ligatures are expanded (no TEXT_PRESERVE_LIGATURES) so that "ﬁ" and "fi" compare
# equal; unknown glyphs keep their CID instead of all collapsing to U+FFFD.
_TEXT_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
_HYPHENS = "-\u00ad\u2010"


@dataclass(slots=True)
class _PageWords:
    """The words of one page in reading order, packed (rects in PyMuPDF page space)."""

    texts: array[int]
    rects: array[float]
    blocks: array[int]
    lines: array[int]
    # Words hyphenated at the end of their line that join the next word, e.g.
    # "compar-" + "ison": one token, so reflowed text does not differ.
    joins: tuple[int, ...]

    def end_of_line(self, k: int) -> bool:
        nxt = k + 1
        return nxt >= len(self.texts) or (
            self.blocks[nxt] != self.blocks[k] or self.lines[nxt] != self.lines[k]
        )


@dataclass(slots=True)
class Vocabulary:
    """One id per distinct string (word text or token key), shared by both sides."""

    ids: dict[object, int] = field(default_factory=dict)
    strings: list[object] = field(default_factory=list)

    def id(self, key: object) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.strings)
            self.strings.append(key)
        return found

    def text(self, id: int) -> str:
        key = self.strings[id]
        assert isinstance(key, str)
        return key

    def ids_of(self, keys: list[str]) -> list[int]:
        for key in set(keys).difference(self.ids):
            self.ids[key] = len(self.strings)
            self.strings.append(key)
        return list(map(self.ids.__getitem__, keys))


@dataclass(slots=True)
class Tokens:
    """A side's token sequence; token t covers words first[t]..first[t]+count[t]-1
    of page page[t] (count 0 = an identical page kept whole, not extracted)."""

    ids: list[int] = field(default_factory=list)
    page: array[int] = field(default_factory=lambda: array("i"))
    first: array[int] = field(default_factory=lambda: array("i"))
    count: array[int] = field(default_factory=lambda: array("i"))
    opaque_before: array[int] = field(default_factory=lambda: array("i", [0]))

    def add(
        self,
        ids: Sequence[int],
        page: int,
        first: Sequence[int],
        count: Sequence[int],
        opaque: int = 0,
    ) -> None:
        """Append tokens of one page; `opaque` 1 marks a whole-page token."""
        self.ids.extend(ids)
        self.page.extend([page] * len(ids))
        self.first.extend(first)
        self.count.extend(count)
        self.opaque_before.extend([self.opaque_before[-1] + opaque] * len(ids))


class Side:
    """One document of the comparison: its pages' fingerprints and extracted words."""

    def __init__(self, doc: pymupdf.Document, vocabulary: Vocabulary) -> None:
        self.doc = doc
        self.vocabulary = vocabulary
        self.printer = Fingerprinter(doc)
        self.first_digests = [self.printer.page(i) for i in range(doc.page_count)]
        self.fingerprints: list[bytes | None] = []
        self.words: dict[int, _PageWords] = {}

    def fingerprint(self, candidates: set[bytes]) -> None:
        """Complete the digests of pages whose first digest is in `candidates`
        (resolving resources costs more: only pages with a possible twin)."""
        self.fingerprints = [
            self.printer.full(i, first) if first in candidates else None
            for i, first in enumerate(self.first_digests)
        ]

    def page_words(self, index: int) -> _PageWords:
        found = self.words.get(index)
        if found is None:
            found = self.words[index] = self._extract(index)
        return found

    def _extract(self, index: int) -> _PageWords:
        try:
            words = self.doc[index].get_text("words", flags=_TEXT_FLAGS, sort=False)
        except Exception:
            logger.warning(
                "text of page %d could not be extracted", index, exc_info=True
            )
            words = []
        texts = [w[4] for w in words]
        result = _PageWords(
            texts=array("i", self.vocabulary.ids_of(texts)),
            rects=array("f", [c for w in words for c in w[:4]]),
            blocks=array("i", [w[5] for w in words]),
            lines=array("i", [w[6] for w in words]),
            joins=(),
        )
        result.joins = tuple(
            k
            for k, text in enumerate(texts[:-1])
            if text[-1] in _HYPHENS
            and _joins(text, texts[k + 1])
            and result.end_of_line(k)
        )
        return result

    def tokens(self, opaque: set[bytes]) -> Tokens:
        """Tokens in reading order; a page whose fingerprint is in `opaque` is one."""
        out = Tokens()
        for index, fingerprint in enumerate(self.fingerprints):
            if fingerprint is not None and fingerprint in opaque:
                out.add([self.vocabulary.id(("page", fingerprint))], index, [0], [0], 1)
            else:
                self._tokenize_page(out, index)
        return out

    def _tokenize_page(self, out: Tokens, index: int) -> None:
        words = self.page_words(index)
        # A word's token id is the id of its text; only joins need new keys.
        start = 0
        for k in words.joins:
            if k < start:
                continue  # "a-" "b-" "c" on three lines: "b-" already joined "a-"
            out.add(words.texts[start:k], index, range(start, k), [1] * (k - start))
            text = self.vocabulary.text(words.texts[k])
            key = text[:-1] + self.vocabulary.text(words.texts[k + 1])
            out.add([self.vocabulary.id(key)], index, [k], [2])
            start = k + 2
        total = len(words.texts)
        out.add(words.texts[start:], index, range(start, total), [1] * (total - start))

    def lines_near(self, index: int, rect: pymupdf.Rect) -> list[dict[str, Any]]:
        """The text lines (with characters) around `rect` on a page (page space).

        Clipped extraction: building the characters of a whole page costs ~10x more.
        """
        clip = pymupdf.Rect(rect) + (-2, -2, 2, 2)
        try:
            raw = self.doc[index].get_text("rawdict", flags=_TEXT_FLAGS, clip=clip)
        except Exception:
            logger.warning(
                "characters of page %d could not be extracted", index, exc_info=True
            )
            return []
        return [line for block in raw["blocks"] for line in block.get("lines", ())]


def word_text(side: Side, page: int, k: int) -> str:
    """The text of word `k` of 0-based page `page`, an extracted page of `side`."""
    return side.vocabulary.text(side.words[page].texts[k])


def broken_at_hyphen(text: str) -> bool:
    """Whether `text` ends with a hyphen after a letter, as a word hyphenated at
    the end of a line does ("compar-")."""
    return len(text) >= 2 and text[-1] in _HYPHENS and text[-2].isalpha()


def _joins(text: str, following: str) -> bool:
    """Whether `text` ending a line is hyphenated and continues with `following`."""
    return (
        broken_at_hyphen(text) and following[:1].isalpha() and following[:1].islower()
    )
