"""`make bench` in miniature: the driver runs every scenario once on tiny inputs,
and the viewing workload's users read every page of what they upload."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live import ROOT, database_url, live_service


def _smoke_database() -> str:
    # Its own database on the test server: the driver empties databases named
    # "*bench*" before it starts, and the test database must stay as it is.
    # Named after this checkout too: worktrees of other branches share the server,
    # and a database migrated by another branch cannot be flushed by this one.
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    parts = urlsplit(database_url())
    return urlunsplit(parts._replace(path=f"/transformsvc_bench_smoke_{checkout}"))


def _redis_reachable() -> bool:
    import shutil

    from bench.service import DEFAULT_REDIS_URL
    from tests.live import redis_answers

    return redis_answers(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL) or bool(
        shutil.which("redis-server")
    )


@pytest.mark.cluster
def test_bench_smoke_produces_every_row_with_numbers(tmp_path: Path) -> None:
    report_path = tmp_path / "bench.json"
    env = {**os.environ, "DATABASE_URL": _smoke_database()}
    done = subprocess.run(
        [
            sys.executable,
            "bench/run.py",
            "--smoke",
            "--work",
            str(tmp_path / "work"),
            "--json",
            str(report_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    report = json.loads(report_path.read_text())
    rows = report["rows"]
    assert report["failures"] == []
    assert {row["number"] for row in rows} == {str(n) for n in range(1, 12)}
    with_redis = _redis_reachable()
    for row in rows:
        if row["skipped"] == "no Redis server" and not with_redis:
            continue
        assert row["skipped"] is None, row
        assert isinstance(row["service_median"], float | int), row
        # Queue latencies are whole milliseconds and may be 0 on Redis; errors
        # are 0 when all is well; a smoke run's few users may find no ceiling.
        assert (
            row["service_median"] > 0
            or row["unit"] in ("ms", "errors")
            or ("ceiling" in row["scenario"])
        ), row
        no_ceiling = "ceiling" in row["scenario"] and row["service_median"] == 0
        if row["baseline"]:
            assert row["baseline_median"] > 0, row
            assert row["ratio"] > 0 or no_ceiling, row
        if row["goal"]:
            assert row["pass"] in (True, False), row
    brokers = {
        row["scenario"].rsplit("(", 1)[-1] for row in rows if row["number"] == "8"
    }
    assert brokers == {"database broker)", "redis broker)"} or not with_redis
    viewing = {row["scenario"]: row for row in rows if row["number"] == "10"}
    assert any(name.endswith("errors (all runs)") for name in viewing), viewing
    # The printed table carries every row, in order.
    table_lines = [line for line in done.stdout.splitlines() if line[:1].isdigit()]
    assert [line.split()[0] for line in table_lines] == [row["number"] for row in rows]


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_viewing_users_read_every_page_of_what_they_upload(tmp_path: Path) -> None:
    from bench.openloop import IMAGE_TYPES, KINDS, offer, summarize
    from bench.scenarios.viewing import documents

    docs = documents(tmp_path / "inputs", smoke=True)  # a 3-page PDF, a JPEG
    assert [doc.name.rsplit(".", 1)[1] for doc in docs] == ["pdf", "jpg"]
    with live_service(tmp_path / "live", ocr_worker=True) as service:
        roots = {name: proc.pid for name, proc in service.processes.items()}
        # Three users, 0.5 s apart: PDF, JPEG, PDF.
        run = offer(service.base, docs, 2.0, 1.5, roots, drain=30)
    summary = summarize(run, p95_goal_ms=10_000)
    assert summary["errors"] == 0, summary["error_examples"]
    assert [v.doc for v in run.visits] == ["small.pdf", "photo-small.jpg", "small.pdf"]
    assert [v.pages for v in run.visits] == [3, 1, 3]
    for visit in run.visits:
        assert visit.completed
        once = [s.kind for s in visit.samples if s.page is None]
        assert once == ["upload", "layout", "bookmarks", "delete"]
        for page in range(visit.pages):
            made = [s for s in visit.samples if s.page == page]
            assert sorted(s.kind for s in made) == [
                "image",
                "text/position",
                "thumbnail",
            ]
            read = {s.kind: s for s in made}
            assert all(s.status == 200 and s.error is None for s in read.values())
            assert read["thumbnail"].content_type in IMAGE_TYPES
            assert read["image"].content_type in IMAGE_TYPES
            assert read["text/position"].content_type == "application/json"
            # The answer carried a positionTextList: the PDF's lines, if any.
            lines = read["text/position"].items
            assert lines is not None and (lines > 0 or visit.doc.endswith(".jpg"))
    # A photo that is one JPEG covering its page answers JPEG, PDF pages PNG.
    types = {
        v.doc: {s.content_type for s in v.samples if s.kind == "image"}
        for v in run.visits
    }
    assert types == {"small.pdf": {"image/png"}, "photo-small.jpg": {"image/jpeg"}}
    assert set(summary["kinds"]) == set(KINDS)
    assert summary["requests_per_doc"] == (2 * (4 + 3 * 3) + (4 + 3)) / 3
    assert summary["cpu_ms_per_request"]["service"] > 0
