"""The sequence diff behind text_diff: exact on long texts with few edits, fast on
unrelated ones.
"""

from __future__ import annotations

import random
import time

from engines.pdf.compare.sequence import matching_blocks


def check_blocks(a: list[int], b: list[int], blocks: list[tuple[int, int, int]]) -> int:
    """Assert the runs are real and ordered; return how many tokens they match."""
    last_i = last_j = 0
    for i, j, n in blocks:
        assert i >= last_i and j >= last_j and n > 0
        assert a[i : i + n] == b[j : j + n]
        last_i, last_j = i + n, j + n
    return sum(n for _, _, n in blocks)


def test_sequence_diff_of_a_long_text_with_few_edits_is_exact() -> None:
    rng = random.Random(7)
    a = [rng.randrange(20_000) for _ in range(300_000)]
    b = list(a)
    for _ in range(20):
        b[rng.randrange(len(b))] = -1  # 20 replaced words
    del b[150_000:150_010]  # and 10 deleted

    start = time.perf_counter()
    matched = check_blocks(a, b, matching_blocks(a, b))

    assert time.perf_counter() - start < 5
    assert matched >= len(a) - 30


def test_sequence_diff_of_unrelated_long_texts_is_fast() -> None:
    rng = random.Random(8)
    a = [rng.randrange(5_000) for _ in range(100_000)]
    b = [rng.randrange(5_000) for _ in range(100_000)]

    start = time.perf_counter()
    check_blocks(a, b, matching_blocks(a, b))

    assert time.perf_counter() - start < 10
