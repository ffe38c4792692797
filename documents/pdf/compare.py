"""Compare two PDFs: a word-level text diff and a pixel comparison (decisions §7).

Pages count from 0 everywhere in this module; positions are in points on the page
as displayed (decisions §4), converted only through `documents.pdf.geometry`.
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import re
import tempfile
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
import pymupdf
from rapidfuzz.distance import Indel

from documents.pdf import geometry
from documents.pdf.types import (
    Box,
    CompareStyle,
    EngineError,
    Fragment,
    PositionText,
    Rgb,
    TextChange,
)

logger = logging.getLogger(__name__)

# Ligatures are expanded (no TEXT_PRESERVE_LIGATURES) so that "ﬁ" and "fi" compare
# equal; unknown glyphs keep their CID instead of all collapsing to U+FFFD.
_TEXT_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
_HYPHENS = "-\u00ad\u2010"
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_REF = re.compile(rb"(\d+) (\d+) R")
_COLOR = re.compile(r"#?([0-9a-fA-F]{6})")

# rapidfuzz's bit-parallel LCS costs about n*m/64 word operations and n*m/8 bytes
# for its backtracking matrix: 1e8 is ~25 ms and ~12 MB, so it is used directly
# below that size and the patience split above it.
_DIRECT_LIMIT = 100_000_000
# Total elements the patience split may visit, per element of input: keeps
# pathological inputs linear (beyond it a range is reported as replaced).
_WORK_FACTOR = 30
# The most occurrences an anchor token may have (1 = classic patience diff).
_MAX_ANCHOR_COUNT = 4
# Weight of an unextracted identical page when deciding whether a short equal run
# between two changes is worth keeping (about a page of words).
_OPAQUE_WEIGHT = 500
_CHUNK_PAGES = 32


@contextmanager
def _open(path: str) -> Iterator[pymupdf.Document]:
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # PyMuPDF raises several unrelated types here
        raise EngineError(f"{Path(path).name} could not be opened as a PDF") from exc
    try:
        if doc.needs_pass and not doc.authenticate(""):
            raise EngineError(f"{Path(path).name} is encrypted with a password")
        yield doc
    finally:
        doc.close()


# ---------------------------------------------------------------------------
# Page fingerprints: identical pages are neither extracted nor diffed word by word.


class _Fingerprinter:
    """Digests of what determines a page's text, comparable across documents.

    A page's text is a function of its content stream, its resources (fonts,
    form XObjects, resolved deeply, stream bytes included), its boxes and rotation,
    and the annotation appearances PyMuPDF also extracts. Pages with annotations
    or form fields get no fingerprint and are always extracted.
    """

    def __init__(self, doc: pymupdf.Document) -> None:
        self.doc = doc
        self.memo: dict[int, bytes] = {}
        self.salt = self._catalog_salt()

    def page(self, index: int) -> bytes | None:
        """A cheap first digest: content stream, boxes, rotation (None: no shortcut)."""
        try:
            page = self.doc[index]
            # MuPDF keeps links apart and never draws them; any other annotation
            # or widget may show text, so such pages are always extracted.
            if page.first_annot is not None or page.first_widget is not None:
                return None
            digest = hashlib.sha1(self.salt)
            geometry_key = (page.rotation, tuple(page.cropbox), tuple(page.mediabox))
            digest.update(repr(geometry_key).encode())
            digest.update(hashlib.sha1(page.read_contents()).digest())
            return digest.digest()
        except Exception:  # a damaged page is simply extracted
            logger.debug("no fingerprint for page %d", index, exc_info=True)
            return None

    def full(self, index: int, first: bytes) -> bytes | None:
        """`first` completed with the page's resources, resolved deeply."""
        try:
            resources = self._resources(self.doc.page_xref(index))
        except Exception:
            logger.debug("no fingerprint for page %d", index, exc_info=True)
            return None
        return hashlib.sha1(first + resources).digest()

    def _catalog_salt(self) -> bytes:
        # Optional-content settings change what is visible (and extracted).
        try:
            catalog = self.doc.pdf_catalog()
            kind, value = self.doc.xref_get_key(catalog, "OCProperties")
        except Exception:
            return b"no catalog"
        return self._value(value) if kind != "null" else b""

    def _resources(self, xref: int) -> bytes:
        # Resources may be inherited from an ancestor in the page tree.
        for _ in range(64):
            kind, value = self.doc.xref_get_key(xref, "Resources")
            if kind != "null":
                return self._value(value)
            parent_kind, parent = self.doc.xref_get_key(xref, "Parent")
            if parent_kind != "xref":
                return b"no resources"
            xref = int(parent.split()[0])
        return b"no resources"

    def _value(self, source: str) -> bytes:
        parts = _REF.split(source.encode())
        digest = hashlib.sha1(parts[0])
        for i in range(1, len(parts), 3):
            digest.update(self._object(int(parts[i])))
            digest.update(parts[i + 2])
        return digest.digest()

    def _object(self, xref: int) -> bytes:
        if xref in self.memo:
            return self.memo[xref]
        self.memo[xref] = b"cycle"
        try:
            source = self.doc.xref_object(xref, compressed=True)
        except Exception:
            source = "missing"
        if self.doc.xref_get_key(xref, "Type")[1] in ("/Page", "/Pages"):
            # Links back into the page tree say nothing about this page's text.
            result = b"page"
        else:
            result = self._value(source)
            if self.doc.xref_is_stream(xref):
                stream = self.doc.xref_stream_raw(xref) or b""
                result = hashlib.sha1(result + hashlib.sha1(stream).digest()).digest()
        self.memo[xref] = result
        return result


# ---------------------------------------------------------------------------
# Words and tokens.


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
class _Vocabulary:
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
class _Tokens:
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


class _Side:
    """One document of the comparison: its pages' fingerprints and extracted words."""

    def __init__(self, doc: pymupdf.Document, vocabulary: _Vocabulary) -> None:
        self.doc = doc
        self.vocabulary = vocabulary
        self.printer = _Fingerprinter(doc)
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

    def tokens(self, opaque: set[bytes]) -> _Tokens:
        """Tokens in reading order; a page whose fingerprint is in `opaque` is one."""
        out = _Tokens()
        for index, fingerprint in enumerate(self.fingerprints):
            if fingerprint is not None and fingerprint in opaque:
                out.add([self.vocabulary.id(("page", fingerprint))], index, [0], [0], 1)
            else:
                self._tokenize_page(out, index)
        return out

    def _tokenize_page(self, out: _Tokens, index: int) -> None:
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


def _joins(text: str, following: str) -> bool:
    """Whether `text` ending a line is hyphenated and continues with `following`."""
    return (
        len(text) >= 2
        and text[-1] in _HYPHENS
        and text[-2].isalpha()
        and following[:1].isalpha()
        and following[:1].islower()
    )


# ---------------------------------------------------------------------------
# The sequence diff: patience/histogram anchors, rapidfuzz for small ranges.


def _matching_blocks(a: list[int], b: list[int]) -> list[tuple[int, int, int]]:
    """Runs (i, j, n) with a[i:i+n] == b[j:j+n], increasing in i and j.

    Near-linear: equal prefixes/suffixes are peeled off, large ranges are split at
    tokens that occur equally rarely on both sides (longest increasing subsequence
    of their positions, O(k log k)), and only ranges whose size product is at most
    `_DIRECT_LIMIT` go to rapidfuzz's bit-parallel LCS.
    """
    matches: list[tuple[int, int, int]] = []
    budget = _WORK_FACTOR * (len(a) + len(b)) + 1_000_000
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = _peel(a, b, *stack.pop(), matches)
        if alo == ahi or blo == bhi:
            continue
        if (ahi - alo) * (bhi - blo) <= _DIRECT_LIMIT:
            _direct(a, b, alo, ahi, blo, bhi, matches)
            continue
        budget -= (ahi - alo) + (bhi - blo)
        anchors = _anchors(a, b, alo, ahi, blo, bhi) if budget > 0 else []
        for i, j in anchors:
            matches.append((i, j, 1))
            stack.append((alo, i, blo, j))
            alo, blo = i + 1, j + 1
        if anchors:
            stack.append((alo, ahi, blo, bhi))
    return _merge_runs(sorted(matches))


def _peel(
    a: list[int],
    b: list[int],
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    matches: list[tuple[int, int, int]],
) -> tuple[int, int, int, int]:
    i, j = alo, blo
    while i < ahi and j < bhi and a[i] == b[j]:
        i += 1
        j += 1
    if i > alo:
        matches.append((alo, blo, i - alo))
    k, m = ahi, bhi
    while k > i and m > j and a[k - 1] == b[m - 1]:
        k -= 1
        m -= 1
    if k < ahi:
        matches.append((k, m, ahi - k))
    return i, k, j, m


def _direct(
    a: list[int],
    b: list[int],
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    matches: list[tuple[int, int, int]],
) -> None:
    opcodes = Indel.opcodes(a[alo:ahi], b[blo:bhi])
    for block in opcodes.as_matching_blocks():
        if block.size:
            matches.append((alo + block.a, blo + block.b, block.size))


def _anchors(
    a: list[int], b: list[int], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """Pairs (i, j) of equal, rare tokens forming the longest increasing chain."""
    count_a = Counter(a[alo:ahi])
    count_b = Counter(b[blo:bhi])
    for rarity in range(1, _MAX_ANCHOR_COUNT + 1):
        rare = {
            t for t, n in count_a.items() if n == rarity and count_b.get(t) == rarity
        }
        if rare:
            break
    else:
        return []
    positions: dict[int, list[int]] = {}
    for i in range(alo, ahi):
        if a[i] in rare:
            positions.setdefault(a[i], []).append(i)
    seen: Counter[int] = Counter()
    pairs: list[tuple[int, int]] = []
    for j in range(blo, bhi):
        token = b[j]
        if token in rare:
            # The k-th occurrence on the left pairs with the k-th on the right.
            pairs.append((positions[token][seen[token]], j))
            seen[token] += 1
    return _longest_increasing(pairs)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of `pairs` (given in increasing j) also increasing in i."""
    tails: list[int] = []  # smallest last i of a chain of each length
    tail_index: list[int] = []
    previous = [-1] * len(pairs)
    for n, (i, _) in enumerate(pairs):
        length = bisect.bisect_left(tails, i)
        if length == len(tails):
            tails.append(i)
            tail_index.append(n)
        else:
            tails[length] = i
            tail_index[length] = n
        previous[n] = tail_index[length - 1] if length else -1
    chain: list[tuple[int, int]] = []
    n = tail_index[-1] if tail_index else -1
    while n >= 0:
        chain.append(pairs[n])
        n = previous[n]
    return chain[::-1]


def _merge_runs(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    merged: list[tuple[int, int, int]] = []
    for i, j, n in runs:
        if (
            merged
            and merged[-1][0] + merged[-1][2] == i
            and merged[-1][1] + merged[-1][2] == j
        ):
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


def _changed_ranges(
    blocks: list[tuple[int, int, int]], size_a: int, size_b: int
) -> list[list[int]]:
    """The gaps between matching runs, as [i1, i2, j1, j2]."""
    ranges: list[list[int]] = []
    i = j = 0
    for bi, bj, n in [*blocks, (size_a, size_b, 0)]:
        if bi > i or bj > j:
            ranges.append([i, bi, j, bj])
        i, j = bi + n, bj + n
    return ranges


def _absorb_short_equalities(ranges: list[list[int]], left: _Tokens) -> list[list[int]]:
    """Merge changes separated by an equal run shorter than the edits on both
    sides of it (diff-match-patch's semantic cleanup, counted in tokens): a stray
    matching "the" between two rewritten sentences is noise to a reader."""
    merged: list[list[int]] = []
    for current in ranges:
        if merged:
            previous = merged[-1]
            equal = current[0] - previous[1]
            equal += (_OPAQUE_WEIGHT - 1) * (
                left.opaque_before[current[0]] - left.opaque_before[previous[1]]
            )
            if equal < _edit_size(previous) and equal < _edit_size(current):
                previous[1], previous[3] = current[1], current[3]
                continue
        merged.append(list(current))
    return merged


def _edit_size(change: list[int]) -> int:
    return max(change[1] - change[0], change[3] - change[2])


# ---------------------------------------------------------------------------
# Text diff.


def text_diff(left: str, right: str) -> list[TextChange]:
    """Word-level differences between two PDFs (paths), in reading order.

    Reading order is the order of PyMuPDF's blocks and lines as the producer wrote
    them (`get_text("words", sort=False)`): for typeset documents that is the
    reading order, multi-column pages stay column by column (sorting by position
    would interleave columns), and the same text reflowed keeps the same order.
    Words are whitespace-separated tokens, line breaks do not matter, and a word
    hyphenated across a line break equals the unbroken word. Annotation appearance
    text that PyMuPDF extracts (e.g. FreeText) counts: it is what a reader sees.

    Each change lists its words as fragments (DELETE = left text, ADD = right text),
    one per line, `page` 0-based; `left`/`right` describe the changed words on
    their first line, None on a side without words. Pages identical in content on
    both sides are matched whole without extracting their text.
    """
    vocabulary = _Vocabulary()
    with _open(left) as left_doc, _open(right) as right_doc:
        sides = (_Side(left_doc, vocabulary), _Side(right_doc, vocabulary))
        ranges, tokens = _diff_sides(*sides)
        return [
            change
            for r in ranges
            if (change := _text_change(sides, tokens, r)) is not None
        ]


def _diff_sides(
    left: _Side, right: _Side
) -> tuple[list[list[int]], tuple[_Tokens, _Tokens]]:
    candidates = {f for f in left.first_digests if f is not None}
    candidates &= set(right.first_digests)
    left.fingerprint(candidates)
    right.fingerprint(candidates)
    opaque = {f for f in left.fingerprints if f is not None}
    opaque &= set(right.fingerprints)
    while True:
        tokens = (left.tokens(opaque), right.tokens(opaque))
        blocks = _matching_blocks(tokens[0].ids, tokens[1].ids)
        ranges = _changed_ranges(blocks, len(tokens[0].ids), len(tokens[1].ids))
        unmatched = _unmatched_pages(ranges, tokens, (left, right))
        if not unmatched:
            return _absorb_short_equalities(ranges, tokens[0]), tokens
        # An identical page that found no partner (e.g. moved or duplicated) is
        # compared word by word instead.
        opaque -= unmatched


def _unmatched_pages(
    ranges: list[list[int]], tokens: tuple[_Tokens, _Tokens], sides: tuple[_Side, _Side]
) -> set[bytes]:
    found: set[bytes] = set()
    for r in ranges:
        for side, tok, lo, hi in (
            (0, tokens[0], r[0], r[1]),
            (1, tokens[1], r[2], r[3]),
        ):
            if tok.opaque_before[hi] == tok.opaque_before[lo]:
                continue
            for t in range(lo, hi):
                if tok.count[t] == 0:
                    fingerprint = sides[side].fingerprints[tok.page[t]]
                    assert fingerprint is not None
                    found.add(fingerprint)
    return found


def _words_of(tokens: _Tokens, lo: int, hi: int) -> list[tuple[int, int]]:
    """(page, word index) of the words covered by tokens lo..hi-1."""
    return [
        (tokens.page[t], k)
        for t in range(lo, hi)
        for k in range(tokens.first[t], tokens.first[t] + tokens.count[t])
    ]


def _text_change(
    sides: tuple[_Side, _Side], tokens: tuple[_Tokens, _Tokens], r: list[int]
) -> TextChange | None:
    left_words = _words_of(tokens[0], r[0], r[1])
    right_words = _words_of(tokens[1], r[2], r[3])
    left_lines = _group_lines(sides[0], left_words)
    right_lines = _group_lines(sides[1], right_words)
    if not left_lines and not right_lines:
        return None
    if (
        left_lines
        and right_lines
        and _same_words(
            _spellings(sides[0], left_words), _spellings(sides[1], right_words)
        )
    ):
        return None  # only where words break across lines differs
    kind = (
        "MODIFY" if left_lines and right_lines else ("DELETE" if left_lines else "ADD")
    )
    fragments = [
        *_fragments(sides[0], left_lines, "DELETE"),
        *_fragments(sides[1], right_lines, "ADD"),
    ]
    return TextChange(
        change_type=kind,
        fragments=tuple(fragments),
        left=_position_text(sides[0], left_lines[0]) if left_lines else None,
        right=_position_text(sides[1], right_lines[0]) if right_lines else None,
    )


def _group_lines(
    side: _Side, words: list[tuple[int, int]]
) -> list[list[tuple[int, int]]]:
    """Split words into runs on one line of one page."""
    lines: list[list[tuple[int, int]]] = []
    previous: tuple[int, int, int] | None = None
    for page, k in words:
        pw = side.words[page]
        key = (page, pw.blocks[k], pw.lines[k])
        if key != previous:
            lines.append([])
            previous = key
        lines[-1].append((page, k))
    return lines


def _word_text(side: _Side, page: int, k: int) -> str:
    return side.vocabulary.text(side.words[page].texts[k])


def _spellings(side: _Side, words: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """The words, with each word broken at a hyphen across a line break joined to
    its continuation, spelled with and without that hyphen ("well-known" broken
    after "well-" stays "well-known"; "compar-" + "ison" is "comparison")."""
    spelled: list[tuple[str, str]] = []
    n = 0
    while n < len(words):
        page, k = words[n]
        text = _word_text(side, page, k)
        if (
            n + 1 < len(words)
            and len(text) >= 2
            and text[-1] in _HYPHENS
            and text[-2].isalpha()
            and side.words[page].end_of_line(k)
        ):
            following = _word_text(side, *words[n + 1])
            spelled.append((text + following, text[:-1] + following))
            n += 2
        else:
            spelled.append((text, text))
            n += 1
    return spelled


def _same_words(left: list[tuple[str, str]], right: list[tuple[str, str]]) -> bool:
    return len(left) == len(right) and all(
        not set(a).isdisjoint(b) for a, b in zip(left, right, strict=True)
    )


def _fragments(
    side: _Side, lines: list[list[tuple[int, int]]], kind: str
) -> Iterator[Fragment]:
    for line in lines:
        page, last = line[-1]
        yield Fragment(
            text=" ".join(_word_text(side, p, k) for p, k in line),
            page=page,
            end_of_line=side.words[page].end_of_line(last),
            type=kind,
        )


# ---------------------------------------------------------------------------
# PositionText of a changed line (only computed for reported changes).


def _position_text(side: _Side, line: list[tuple[int, int]]) -> PositionText:
    """The changed words of one line; font and widths come from the page's chars.

    `font`/`font_size` are those of the first character's span ("" and 0 when the
    characters cannot be found); `individual_widths` has one entry per character
    of `text` (spaces between words included) and sums to `position.w`.
    """
    page_index = line[0][0]
    pw = side.words[page_index]
    page = side.doc[page_index]
    words = [_word_text(side, page_index, k) for _, k in line]
    rects = [pymupdf.Rect(*pw.rects[4 * k : 4 * k + 4]) for _, k in line]
    union = pymupdf.Rect(rects[0])
    for rect in rects[1:]:
        union |= rect
    box = geometry.rect_to_box(geometry.page_rect_to_display(page, union))
    raw_line, chars = _chars_in(side.lines_near(page_index, union), rects)
    direction = (
        (float(raw_line["dir"][0]), float(raw_line["dir"][1]))
        if raw_line
        else (1.0, 0.0)
    )
    span = chars[0][0][1] if chars and chars[0] else {}
    text = " ".join(words)
    return PositionText(
        page=page_index,
        position=box,
        text=text,
        individual_widths=_widths(words, rects, chars, direction, box),
        font_size=float(span.get("size", 0.0)),
        font=_SUBSET_PREFIX.sub("", span.get("font", "")),
        paragraph_id=pw.blocks[line[0][1]],
        right_to_left=_is_rtl(text),
        rotation=geometry.line_rotation(direction, page.rotation),
    )


_Char = tuple[dict[str, Any], dict[str, Any]]  # (char, its span)


def _chars_in(
    lines: list[dict[str, Any]], rects: list[pymupdf.Rect]
) -> tuple[dict[str, Any] | None, list[list[_Char]]]:
    """The rawdict line holding the words and, per word, its characters."""
    union = pymupdf.Rect(rects[0])
    for rect in rects[1:]:
        union |= rect
    best: tuple[int, dict[str, Any] | None, list[list[_Char]]] = (0, None, [])
    for line in lines:
        if not pymupdf.Rect(line["bbox"]).intersects(union):
            continue
        per_word = _chars_per_word(line, rects)
        found = sum(len(chars) for chars in per_word)
        if found > best[0]:
            best = (found, line, per_word)
    return best[1], best[2]


def _chars_per_word(
    line: dict[str, Any], rects: list[pymupdf.Rect]
) -> list[list[_Char]]:
    per_word: list[list[_Char]] = [[] for _ in rects]
    for span in line["spans"]:
        for char in span["chars"]:
            if char["c"].isspace():
                continue
            x0, y0, x1, y1 = char["bbox"]
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            for n, rect in enumerate(rects):
                if rect.x0 <= cx <= rect.x1 and rect.y0 <= cy <= rect.y1:
                    per_word[n].append((char, span))
                    break
    return per_word


def _widths(
    words: list[str],
    rects: list[pymupdf.Rect],
    chars: list[list[_Char]],
    direction: tuple[float, float],
    box: Box,
) -> tuple[float, ...]:
    """Per-character advances along the line, scaled to sum to `box.w`."""
    dx, dy = direction[0], direction[1]

    def extent(bbox: Sequence[float]) -> tuple[float, float]:
        values = [
            x * dx + y * dy for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])
        ]
        return min(values), max(values)

    widths: list[float] = []
    previous_end: float | None = None
    for n, word in enumerate(words):
        rect = rects[n]
        start, end = extent((rect.x0, rect.y0, rect.x1, rect.y1))
        if previous_end is not None:
            widths.append(max(start - previous_end, 0.0))  # the space
        found = chars[n] if n < len(chars) else []
        spans = [extent(c["bbox"]) for c, _ in found]
        starts = [a for a, _ in spans] + [end]
        if len(found) == len(word) and starts == sorted(starts):
            # Successive starts include kerning and sum to the word's extent.
            widths += [starts[i + 1] - starts[i] for i in range(len(word))]
        elif len(found) == len(word):  # right-to-left glyph order
            widths += [b - a for a, b in spans]
        else:
            widths += [(end - start) / max(len(word), 1)] * len(word)
        previous_end = end
    total = sum(widths)
    if total <= 0:
        return tuple(box.w / len(widths) for _ in widths) if widths else ()
    return tuple(w * box.w / total for w in widths)


def _is_rtl(text: str) -> bool:
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


# ---------------------------------------------------------------------------
# Pixel comparison.


def parse_color(value: str) -> Rgb:
    """Parse "ff0000", "FF0000" or "#ff0000" into an Rgb; ValueError otherwise."""
    match = _COLOR.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(
            f"not a colour: {value!r} (expected six hex digits like ff0000)"
        )
    digits = match.group(1)
    return Rgb(int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def pixel_compare(
    left: str, right: str, dest: str, style: CompareStyle, *, dpi: int = 96
) -> int:
    """Write to `dest` a PDF showing where page pairs differ; returns its page count.

    Page pair i is page i (0-based) of each document; a page present on one side
    only is compared with a blank page, so all its content is highlighted. A pixel
    differs when some RGB channel differs by more than `style.fuzz` percent of 255
    (fuzz 0 = exact). Each output page is an image at `dpi` of the right page (the
    left one when the right is absent), top-left aligned on a page as large as the
    larger of the two displayed pages (points) so neither is cut; differing pixels
    are painted `style.highlight`, and when `style.lowlight` is set the other
    non-white pixels are tinted with it (black becomes the lowlight colour).
    Memory is bounded by one page pair plus a chunk of `_CHUNK_PAGES` output pages.
    """
    if not 0 <= style.fuzz <= 100:
        raise EngineError("fuzz must be between 0 and 100 percent")
    if dpi < 1:
        raise EngineError("dpi must be positive")
    with _open(left) as left_doc, _open(right) as right_doc:
        count = int(max(left_doc.page_count, right_doc.page_count))
        if count == 0:
            raise EngineError("both documents have no pages")
        with _ChunkedWriter(dest) as writer:
            for i in range(count):
                writer.add(
                    *_compare_pair(_page(left_doc, i), _page(right_doc, i), style, dpi)
                )
    return count


def _page(doc: pymupdf.Document, index: int) -> pymupdf.Page | None:
    return doc[index] if index < doc.page_count else None


def _render(page: pymupdf.Page | None, dpi: int) -> np.ndarray | None:
    if page is None:
        return None
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
    # `samples` copies: a view of `samples_mv` dies with the pixmap.
    rows = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)
    return rows[:, : pix.width * 3].reshape(pix.height, pix.width, 3)


def _on_canvas(image: np.ndarray | None, height: int, width: int) -> np.ndarray:
    canvas = np.full((height, width, 3), 255, dtype=np.uint8)
    if image is not None:
        canvas[: image.shape[0], : image.shape[1]] = image
    return canvas


def _compare_pair(
    left: pymupdf.Page | None, right: pymupdf.Page | None, style: CompareStyle, dpi: int
) -> tuple[pymupdf.Pixmap, float, float]:
    """The marked-up image of one page pair and its page size in points."""
    images = (_render(left, dpi), _render(right, dpi))
    height = max(i.shape[0] for i in images if i is not None)
    width = max(i.shape[1] for i in images if i is not None)
    left_px, right_px = (_on_canvas(i, height, width) for i in images)
    delta = np.abs(left_px.astype(np.int16) - right_px.astype(np.int16)).max(axis=2)
    differs = delta > float(style.fuzz) * 255 / 100
    out = right_px if images[1] is not None else left_px
    if style.lowlight is not None:
        out = _tint(out, style.lowlight)
    out[differs] = (style.highlight.r, style.highlight.g, style.highlight.b)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, width, height, out.tobytes(), False)
    pages = [p.rect for p in (left, right) if p is not None]
    return pixmap, max(r.width for r in pages), max(r.height for r in pages)


def _tint(image: np.ndarray, color: Rgb) -> np.ndarray:
    # Darkness (1 - luminance) picks how much of the lowlight colour replaces white.
    luminance = image @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    darkness = (255.0 - luminance)[..., None] / 255.0
    target = 255.0 - darkness * (
        255.0 - np.array([color.r, color.g, color.b], np.float32)
    )
    return np.clip(np.rint(target), 0, 255).astype(np.uint8)


class _ChunkedWriter:
    """Writes image pages to `dest`, flushing every `_CHUNK_PAGES` pages to disk.

    Chunks are joined with pikepdf, which copies their streams from the chunk
    files at save time instead of holding every page image in memory.
    """

    def __init__(self, dest: str) -> None:
        self.dest = dest
        self.tmp = tempfile.TemporaryDirectory(
            dir=Path(dest).parent, prefix=".compare-"
        )
        self.chunks: list[Path] = []
        self.doc = pymupdf.open()

    def __enter__(self) -> _ChunkedWriter:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        try:
            if kind is None:
                self._finish()
        finally:
            self.doc.close()
            self.tmp.cleanup()

    def add(self, pixmap: pymupdf.Pixmap, width: float, height: float) -> None:
        page = self.doc.new_page(width=width, height=height)
        page.insert_image(page.rect, pixmap=pixmap)
        if self.doc.page_count >= _CHUNK_PAGES:
            self._flush()

    def _flush(self) -> None:
        path = Path(self.tmp.name) / f"chunk-{len(self.chunks)}.pdf"
        self.doc.save(path, garbage=3, deflate=True)
        self.doc.close()
        self.chunks.append(path)
        self.doc = pymupdf.open()

    def _finish(self) -> None:
        if not self.chunks:
            self.doc.save(self.dest, garbage=3, deflate=True)
            return
        if self.doc.page_count:
            self._flush()
        sources = [pikepdf.open(path) for path in self.chunks]
        try:
            with pikepdf.new() as out:
                for source in sources:
                    out.pages.extend(source.pages)
                out.save(self.dest)
        finally:
            for source in sources:
                source.close()
