"""The sequence diff: patience/histogram anchors, rapidfuzz for small ranges.

Sequences are lists of token ids; positions in them count from 0.
"""

from __future__ import annotations

import bisect
from collections import Counter

from rapidfuzz.distance import Indel

# rapidfuzz's bit-parallel LCS costs about n*m/64 word operations and n*m/8 bytes
# for its backtracking matrix: 1e8 is ~25 ms and ~12 MB, so it is used directly
# below that size and the patience split above it.
_DIRECT_LIMIT = 100_000_000
# Total elements the patience split may visit, per element of input: keeps
# pathological inputs linear (beyond it a range is reported as replaced).
_WORK_FACTOR = 30
# The most occurrences an anchor token may have (1 = classic patience diff).
_MAX_ANCHOR_COUNT = 4


def matching_blocks(a: list[int], b: list[int]) -> list[tuple[int, int, int]]:
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


def changed_ranges(
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
