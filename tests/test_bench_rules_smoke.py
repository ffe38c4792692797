"""bench/bench_rules.py in miniature: one run of each side, on the benchmark's
own 10-page statement. Both sides must remove the same words (else the ratio
compares unequal work) and the row must carry its numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf

from bench import bench_rules
from tests.live import ROOT

GONE = ("Acme", "acme", "@acme-bank.example", "ops@example.org", "4111 1111 1111 1111")
KEPT = ("4111 1111 1111 1112", "quarterly statement lists the transfers")


def _text(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(page.get_text() for page in doc)


def test_both_sides_remove_the_same_words_and_keep_the_others(tmp_path: Path) -> None:
    src = tmp_path / "statement.pdf"
    bench_rules.make_document(src)
    assert all(word in _text(src) for word in GONE + KEPT)
    theirs, ours = tmp_path / "pymupdf.pdf", tmp_path / "engine.pdf"

    hits = bench_rules.pymupdf_redaction(src, theirs)
    matches = bench_rules.engine_redaction(src, ours)

    assert hits == matches == 60  # on each of 10 pages: 3 Acme, 2 addresses, 1 card
    for out in (theirs, ours):
        text = _text(out)
        assert [word for word in GONE if word in text] == [], out.name
        assert all(word in text for word in KEPT), out.name


def test_the_benchmark_prints_and_writes_its_row(tmp_path: Path) -> None:
    report = tmp_path / "rules.json"
    done = subprocess.run(
        [sys.executable, "bench/bench_rules.py", "--runs", "1", "--json", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    [row] = json.loads(report.read_text())
    assert row["pymupdf_hits"] == row["engine_matches"] == 60
    assert row["pymupdf_s"] > 0 and row["engine_s"] > 0 and row["matching_s"] > 0
    ratio = row["engine_s"] / row["pymupdf_s"]  # of the rounded times
    assert abs(row["ratio"] - ratio) < 0.02
    assert row["goal"] == "<= 2.0x"
    assert str(row["ratio"]) in done.stdout
