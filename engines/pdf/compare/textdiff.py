"""The word-level text diff: `text_diff` and the changes it reports.

Pages count from 0; positions are in displayed-page space (points), see `position`.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.pdf.compare.opening import SIDES, open_pdf
from engines.pdf.compare.position import position_text
from engines.pdf.compare.sequence import changed_ranges, matching_blocks
from engines.pdf.compare.tokens import (
    Side,
    Tokens,
    Vocabulary,
    broken_at_hyphen,
    word_text,
)
from engines.pdf.types import Fragment, TextChange

# Weight of an unextracted identical page when deciding whether a short equal run
# between two changes is worth keeping (about a page of words).
_OPAQUE_WEIGHT = 500


def text_diff(
    left: str, right: str, *, labels: tuple[str, str] = SIDES
) -> list[TextChange]:
    """Word-level differences between two PDFs (paths), in reading order; errors
    name the documents by `labels`.

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
    vocabulary = Vocabulary()
    with open_pdf(left, labels[0]) as left_doc, open_pdf(right, labels[1]) as right_doc:
        sides = (Side(left_doc, vocabulary), Side(right_doc, vocabulary))
        ranges, tokens = _diff_sides(*sides)
        return [
            change
            for r in ranges
            if (change := _text_change(sides, tokens, r)) is not None
        ]


def _diff_sides(
    left: Side, right: Side
) -> tuple[list[list[int]], tuple[Tokens, Tokens]]:
    candidates = {f for f in left.first_digests if f is not None}
    candidates &= set(right.first_digests)
    left.fingerprint(candidates)
    right.fingerprint(candidates)
    opaque = {f for f in left.fingerprints if f is not None}
    opaque &= set(right.fingerprints)
    while True:
        tokens = (left.tokens(opaque), right.tokens(opaque))
        blocks = matching_blocks(tokens[0].ids, tokens[1].ids)
        ranges = changed_ranges(blocks, len(tokens[0].ids), len(tokens[1].ids))
        unmatched = _unmatched_pages(ranges, tokens, (left, right))
        if not unmatched:
            return _absorb_short_equalities(ranges, tokens[0]), tokens
        # An identical page that found no partner (e.g. moved or duplicated) is
        # compared word by word instead.
        opaque -= unmatched


def _unmatched_pages(
    ranges: list[list[int]], tokens: tuple[Tokens, Tokens], sides: tuple[Side, Side]
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


def _words_of(tokens: Tokens, lo: int, hi: int) -> list[tuple[int, int]]:
    """(page, word index) of the words covered by tokens lo..hi-1."""
    return [
        (tokens.page[t], k)
        for t in range(lo, hi)
        for k in range(tokens.first[t], tokens.first[t] + tokens.count[t])
    ]


def _text_change(
    sides: tuple[Side, Side], tokens: tuple[Tokens, Tokens], r: list[int]
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
        left=position_text(sides[0], left_lines[0]) if left_lines else None,
        right=position_text(sides[1], right_lines[0]) if right_lines else None,
    )


def _group_lines(
    side: Side, words: list[tuple[int, int]]
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


def _spellings(side: Side, words: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """The words, with each word broken at a hyphen across a line break joined to
    its continuation, spelled with and without that hyphen ("well-known" broken
    after "well-" stays "well-known"; "compar-" + "ison" is "comparison")."""
    spelled: list[tuple[str, str]] = []
    n = 0
    while n < len(words):
        page, k = words[n]
        text = word_text(side, page, k)
        if (
            n + 1 < len(words)
            and broken_at_hyphen(text)
            and side.words[page].end_of_line(k)
        ):
            following = word_text(side, *words[n + 1])
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
    side: Side, lines: list[list[tuple[int, int]]], kind: str
) -> Iterator[Fragment]:
    for line in lines:
        page, last = line[-1]
        yield Fragment(
            text=" ".join(word_text(side, p, k) for p, k in line),
            page=page,
            end_of_line=side.words[page].end_of_line(last),
            type=kind,
        )


def _absorb_short_equalities(ranges: list[list[int]], left: Tokens) -> list[list[int]]:
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
