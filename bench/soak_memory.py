"""The soak's memory readings and their judgement (bench/soak.py): every
process of the service sampled from /proc, and each process judged from its own
warmed level (see `growth`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            found.setdefault(parent, []).append(int(entry.name))
    return found


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _kind(pid: int, root: int, roots: dict[int, str]) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "gone"
    if "soffice" in cmd or "oosplash" in cmd:
        return "libreoffice"
    if pid == root:
        return f"{roots[root]} main"
    return "web worker" if roots[root] == "web" else "cluster process"


def tree(roots: dict[int, str]) -> dict[int, str]:
    """Every process of the service: {pid: kind}."""
    children = _children()
    out: dict[int, str] = {}
    for root in roots:
        todo = [root]
        while todo:
            pid = todo.pop()
            out[pid] = _kind(pid, root, roots)
            todo.extend(children.get(pid, []))
    return out


@dataclass
class Sampler:
    roots: dict[int, str]
    every: float
    samples: list[tuple[float, Snapshot]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def sample(self) -> None:
        now = time.monotonic()
        self.samples.append(
            (now, {pid: (kind, _rss_kb(pid)) for pid, kind in tree(self.roots).items()})
        )

    def run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    @contextmanager
    def running(self) -> Iterator[Sampler]:
        self.sample()
        thread = threading.Thread(target=self.run, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            thread.join()
            self.sample()


Snapshot = dict[int, tuple[str, int]]


def growth(
    samples: list[tuple[float, Snapshot]], warm_at: float, warmup_s: float
) -> dict[str, Any]:
    """Each process judged from its own warmed level: its RSS at the end of the
    warm-up, or, for one born after the warm-up began (gunicorn's replacement of
    a recycled worker, a new cluster process), once it has itself lived a warm-up;
    then its growth to its last sample. One that did not live that long is not
    judged on its own (it was still warming up) but by its kind's level."""
    started = samples[0][0]
    born: dict[int, float] = {}
    seen: dict[int, list[tuple[float, str, int]]] = {}
    for t, snapshot in samples:
        for pid, (kind, kb) in snapshot.items():
            if kb > 0 and kind != "gone":
                born.setdefault(pid, t)
                seen.setdefault(pid, []).append((t, kind, kb))
    processes: list[dict[str, Any]] = []
    unjudged: list[dict[str, Any]] = []
    for pid, readings in seen.items():
        late = born[pid] > started  # not there when the soak began
        warm_from = max(warm_at, born[pid] + warmup_s) if late else warm_at
        warm = next((r for r in readings if r[0] >= warm_from), None)
        kind, end_t, end_kb = readings[-1][1], readings[-1][0], readings[-1][2]
        if warm is None:
            unjudged.append(
                {
                    "pid": pid,
                    "kind": kind,
                    "born_s": round(born[pid] - started, 1),
                    "last_s": round(end_t - started, 1),
                    "peak_mb": round(max(r[2] for r in readings) / 1024, 1),
                }
            )
            continue
        processes.append(
            {
                "pid": pid,
                "kind": kind,
                "warm_s": round(warm[0] - started, 1),
                "warm_mb": round(warm[2] / 1024, 1),
                "end_mb": round(end_kb / 1024, 1),
                "growth_mb": round((end_kb - warm[2]) / 1024, 1),
            }
        )
    kinds: dict[str, float] = {}
    for proc in processes:
        kinds[proc["kind"]] = max(kinds.get(proc["kind"], -1e9), proc["growth_mb"])
    warm_index = next(
        (i for i, (t, _) in enumerate(samples) if t >= warm_at), len(samples) - 1
    )
    warming = [s for _, s in samples[: warm_index + 1]]
    after = [s for _, s in samples[warm_index + 1 :]]
    return {
        "processes": processes,
        "unjudged_processes": unjudged,
        "largest_growth_by_kind_mb": kinds,
        "level_by_kind_mb": levels(warming, after),
    }


def levels(
    warming: list[Snapshot], after: list[Snapshot]
) -> dict[str, dict[str, float]]:
    """Per kind, the level of its processes (the largest RSS among them): the
    highest it reached during the warm-up (a LibreOffice instance converting, a
    worker building a page, are part of the level), the highest after it, and
    the last reading. Growth is the highest after the warm-up over the highest
    during it, so a process that swells and is recycled between two readings of
    the ends is still caught, and a working set seen warming up is no growth.
    The judge of processes too young to be judged on their own."""
    out: dict[str, dict[str, float]] = {}
    phases = [("warm_mb", warming), ("peak_mb", after), ("end_mb", after[-1:])]
    for name, snapshots in phases:
        for snapshot in snapshots:
            for kind, kb in snapshot.values():
                if kind == "gone":
                    continue
                entry = out.setdefault(
                    kind, {"warm_mb": 0.0, "end_mb": 0.0, "peak_mb": 0.0}
                )
                entry[name] = max(entry[name], round(kb / 1024, 1))
    for entry in out.values():
        entry["growth_mb"] = round(entry["peak_mb"] - entry["warm_mb"], 1)
    return out
