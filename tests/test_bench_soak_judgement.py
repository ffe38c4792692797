"""The soak's memory judgement (bench/soak_memory.py), on readings made up to
show the case it got wrong: a web worker born just before the warm-up's end."""

from __future__ import annotations

from bench.soak_memory import growth

MB = 1024  # readings are in kB


def readings() -> list[tuple[float, dict[int, tuple[str, int]]]]:
    """An hour sampled each minute, 10-minute warm-up. Worker 1 lives it all at
    about 200 MB; worker 2 is born at minute 9 (151 MB), warms to 200 MB by minute
    15, then holds; worker 3 is born at minute 50 and recycled at minute 55."""
    out = []
    for minute in range(61):
        snapshot = {1: ("web worker", (198 + minute // 30) * MB)}
        if minute >= 9:
            snapshot[2] = ("web worker", min(151 + 10 * (minute - 9), 200) * MB)
        if 50 <= minute <= 55:
            snapshot[3] = ("web worker", 140 * MB)
        out.append((60.0 * minute, snapshot))
    return out


def test_a_process_born_late_is_judged_from_its_own_warmed_level() -> None:
    result = growth(readings(), warm_at=600, warmup_s=600)
    judged = {p["pid"]: p for p in result["processes"]}
    assert judged[1]["growth_mb"] == 2.0
    assert judged[2]["warm_s"] == 19 * 60  # born at 9, warmed at 19
    assert judged[2]["growth_mb"] == 0.0  # not its +49 MB of warming up
    assert [p["pid"] for p in result["unjudged_processes"]] == [3]
    level = result["level_by_kind_mb"]["web worker"]
    assert (level["warm_mb"], level["end_mb"]) == (198.0, 200.0)


def test_a_process_that_grows_after_its_own_warm_up_is_caught() -> None:
    samples = readings()
    for t, snapshot in samples:
        if t >= 40 * 60:
            snapshot[2] = ("web worker", 260 * MB)
    result = growth(samples, warm_at=600, warmup_s=600)
    judged = {p["pid"]: p for p in result["processes"]}
    assert judged[2]["growth_mb"] == 60.0
    assert result["largest_growth_by_kind_mb"]["web worker"] == 60.0


def test_a_short_lived_process_that_swells_is_caught_by_its_kinds_level() -> None:
    """Worker 3 lives five minutes, never a warm-up of its own: were it to swell
    to 260 MB and be recycled before the end, the kind's level at its highest
    shows it, though both ends look flat. A working set as high seen during the
    warm-up is the level, not growth."""
    samples = readings()
    for t, snapshot in samples:
        if 50 * 60 <= t <= 55 * 60:
            snapshot[3] = ("web worker", 260 * MB)
    result = growth(samples, warm_at=600, warmup_s=600)
    level = result["level_by_kind_mb"]["web worker"]
    assert (level["warm_mb"], level["end_mb"]) == (198.0, 200.0)
    assert level["peak_mb"] == 260.0 and level["growth_mb"] == 62.0

    for t, snapshot in samples:
        if t == 5 * 60:  # as high once during the warm-up: the level
            snapshot[1] = ("web worker", 260 * MB)
    level = growth(samples, warm_at=600, warmup_s=600)["level_by_kind_mb"]["web worker"]
    assert (level["warm_mb"], level["peak_mb"], level["growth_mb"]) == (
        260.0,
        260.0,
        0.0,
    )
