"""An open-loop load generator for viewing users (bench/scenarios/viewing.py).

Users arrive evenly spaced at a fixed rate whatever earlier ones are doing, each
on its own thread and keep-alive connection (bench/client.py), so latency is
measured at that rate rather than slowing the arrivals down. A user uploads a
document, reads its layout and bookmarks, then for every page a thumbnail, a
page image and the page's text positions, and deletes it. Every request is
recorded (kind, ms, status, content type, error); a run's summary has the
percentiles of each kind, the errors, and the CPU per request of the service's
process tree, of this client and of the machine, read from /proc.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.client import OCTET, Client
from bench.measure import percentile

KINDS = (
    *("upload", "layout", "bookmarks"),
    *("thumbnail", "image", "text/position"),  # for every page
    "delete",
)
DESCRIPTIONS = {"thumbnail": "IM_100_0", "image": "IM_800_0"}
IMAGE_TYPES = {"image/png": b"\x89PNG", "image/jpeg": b"\xff\xd8"}  # and magic
TIMEOUT = 60.0  # per request; the service waits up to 60 s for a conversion


def vcpus() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Doc:
    name: str
    data: bytes

    def unique(self, tag: str) -> bytes:
        """The same document in bytes no other user uploads."""
        mark = f"viewing-user-{tag}".encode()
        if self.name.endswith(".pdf"):
            return self.data + b"\n%" + mark + b"\n"
        if self.name.endswith(".docx"):  # the zip comment, in the end record
            assert self.data[-22:-18] == b"PK\x05\x06", "a zip without a comment"
            return self.data[:-2] + len(mark).to_bytes(2, "little") + mark
        return self.data + mark  # JPEG and TIFF readers stop at their own end


# --- one user ----------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    ms: float
    page: int | None
    status: int  # 0: no answer
    content_type: str
    error: str | None
    items: int | None = None  # length of the list a JSON answer was checked for


@dataclass
class Visit:
    doc: str
    pages: int = 0
    samples: list[Sample] = field(default_factory=list)
    end: float = 0.0  # time.monotonic()
    completed: bool = False


Check = Callable[[str, bytes], tuple[Any, int | None]]


def _json(key: str) -> Check:
    def check(content_type: str, body: bytes) -> tuple[Any, int | None]:
        if content_type != "application/json":
            raise ValueError(f"content type {content_type}, not JSON")
        value = json.loads(body)
        if key not in value:
            raise ValueError(f"no {key} in {body[:200]!r}")
        listed = value[key]
        return value, len(listed) if isinstance(listed, list) else None

    return check


def _image(content_type: str, body: bytes) -> tuple[Any, int | None]:
    magic = IMAGE_TYPES.get(content_type)
    if magic is None or not body.startswith(magic):
        raise ValueError(f"content type {content_type}, {body[:8]!r}: not an image")
    return True, None


def _ok(content_type: str, body: bytes) -> tuple[Any, int | None]:
    return True, None


def visit(
    base: str, data: bytes, out: Visit, stop: threading.Event, ocr: str | None
) -> None:
    """One user's round, recorded in `out`; it gives up between pages once
    `stop` is set (still deleting its document)."""
    client = Client(base, timeout=TIMEOUT)

    def call(kind: str, path: str, check: Check, **kw: Any) -> Any:
        page, method = kw.pop("page", None), kw.pop("method", "GET")
        start = time.perf_counter()
        status, content_type, value, items, error = 0, "", None, None, None
        try:
            response = client.request(method, path, **kw)
            status = response.status
            content_type = response.getheader("Content-Type", "").split(";")[0].strip()
            body = response.read()
            if not 200 <= status < 300:
                raise ValueError(f"answered {status}: {body[:200]!r}")
            value, items = check(content_type, body)
        except Exception as exc:
            client.close()
            error, value = f"{kind} {path}: {exc!r}"[:400], None
        ms = (time.perf_counter() - start) * 1000
        out.samples.append(Sample(kind, ms, page, status, content_type, error, items))
        return value

    try:
        params = {"documentTitle": out.doc, **({"ocr": ocr} if ocr else {})}
        posted = call(
            "upload", "/documents", _json("id"), method="POST", params=params,
            body=data, headers=OCTET,
        )  # fmt: skip
        if posted is None:
            return
        doc = "/documents/" + quote(str(posted["id"]), safe="")
        layout = call("layout", doc + "/layout", _json("pageDimensionsList"))
        call("bookmarks", doc + "/bookmarks", _json("bookmarks"))
        out.pages = len(layout["pageDimensionsList"]) if layout else 0
        for page in range(out.pages):
            if stop.is_set():
                break
            for kind in ("thumbnail", "image"):
                params = {"pageImageDescription": DESCRIPTIONS[kind]}
                call(
                    kind, f"{doc}/pages/{page}/image", _image, page=page, params=params
                )
            call(
                "text/position", f"{doc}/pages/{page}/text/position",
                _json("positionTextList"), page=page,
            )  # fmt: skip
        out.completed = not stop.is_set() and layout is not None
        call("delete", doc, _ok, method="DELETE")
    finally:
        out.end = time.monotonic()
        client.close()


# --- CPU from /proc ------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(roots: dict[str, int]) -> dict[str, float]:
    """CPU seconds of each root process with its descendants, reaped children
    included, by the roots' names; "service" is their sum."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            parents[int(entry.name)] = int(fields[1])
            ticks[int(entry.name)] = sum(int(f) for f in fields[11:15])
    out = {}
    for name, root in roots.items():
        found, todo = set(), [root] if root in ticks else []
        while todo:
            pid = todo.pop()
            found.add(pid)
            todo.extend(c for c, p in parents.items() if p == pid and c not in found)
        out[name] = sum(ticks[pid] for pid in found) / _TICK
    return {**out, "service": sum(out.values())}


def machine_busy() -> float:
    """CPU seconds the machine has spent busy (all cores) since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return (sum(values[:8]) - values[3] - values[4] - values[7]) / _TICK


def client_cpu() -> float:
    times = os.times()
    return times.user + times.system


# --- a run at one rate ----------------------------------------------------------

_NONCE = os.urandom(4).hex()
_tags = iter(range(10**9))


@dataclass
class Run:
    """Users that arrived at `rate` per second for `duration` seconds."""

    rate: float
    duration: float
    visits: list[Visit]
    start: float  # time.monotonic() of the first arrival
    cpu: dict[str, float]  # CPU seconds over the run: service, client, machine


def offer(
    base: str,
    docs: list[Doc],
    rate: float,
    duration: float,
    roots: dict[str, int],
    *,
    ocr: str | None = None,
    same_bytes: bool = False,
    drain: float = 60.0,
) -> Run:
    """Users arriving at `rate` per second for `duration` seconds, taking `docs`
    in turn, each with bytes of its own unless `same_bytes`; users still running
    `drain` seconds after the last arrival give up between pages. `roots` are the
    service's main processes (their trees' CPU is counted)."""
    count = max(1, round(rate * duration))
    stop = threading.Event()
    visits = [Visit(docs[n % len(docs)].name) for n in range(count)]
    threads = []
    before = _cpu(roots)
    start = time.monotonic()
    for n, out in enumerate(visits):
        time.sleep(max(0.0, start + n / rate - time.monotonic()))
        doc = docs[n % len(docs)]
        data = doc.data if same_bytes else doc.unique(f"{_NONCE}-{next(_tags)}")
        thread = threading.Thread(
            target=visit, args=(base, data, out, stop, ocr), daemon=True
        )
        thread.start()
        threads.append(thread)
    deadline = time.monotonic() + drain
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    stop.set()
    for thread in threads:
        thread.join()
    after = _cpu(roots)
    cpu = {name: after[name] - before[name] for name in before}
    return Run(rate, duration, visits, start, cpu)


def _cpu(roots: dict[str, int]) -> dict[str, float]:
    return {
        **tree_cpu(roots),
        "client": client_cpu(),
        "machine": machine_busy(),
    }


def errors(run: Run) -> list[str]:
    """Failed requests, and users stopped by the drain with no failed request."""
    found = [s.error for v in run.visits for s in v.samples if s.error]
    return found + [
        f"{v.doc}: user still running after the drain"
        for v in run.visits
        if not v.completed and not any(s.error for s in v.samples)
    ]


def summarize(run: Run, p95_goal_ms: float) -> dict[str, Any]:
    """Rates, percentiles per kind (ms), errors, CPU per request (ms); `passed`
    when P95 <= `p95_goal_ms` and nothing failed. Rates are per second of
    arrivals (all users served: the offered rate); `tail_s` is how long after
    the last arrival the last user ended."""
    samples = [s for v in run.visits for s in v.samples]
    failed = errors(run)
    done = sum(v.completed for v in run.visits)
    window = len(run.visits) / run.rate  # the last user arrives 1/rate before its end
    wall = max(v.end for v in run.visits) - run.start

    def spread(ms: list[float]) -> dict[str, float]:
        found = {f"p{p}": round(percentile(ms, p), 1) for p in (50, 95, 99) if ms}
        return {"n": len(ms), **found}

    overall = spread([s.ms for s in samples])
    return {
        "rate": run.rate,
        "users": len(run.visits),
        "completed": done,
        "docs_per_s": round(done / window, 3),
        "docs_per_h": round(done / window * 3600),
        "requests_per_s": round(len(samples) / window, 1),
        "requests_per_doc": round(len(samples) / len(run.visits), 1),
        **{k: overall.get(k) for k in ("p50", "p95", "p99")},
        "kinds": {k: spread([s.ms for s in samples if s.kind == k]) for k in KINDS},
        "documents": {
            name: spread([s.ms for v in run.visits if v.doc == name for s in v.samples])
            for name in dict.fromkeys(v.doc for v in run.visits)
        },
        "errors": len(failed),
        "error_examples": failed[:5],
        "cpu_ms_per_request": {
            name: round(seconds * 1000 / max(1, len(samples)), 2)
            for name, seconds in run.cpu.items()
        },
        "machine_busy_pct": round(run.cpu["machine"] / wall / vcpus() * 100, 1),
        "tail_s": round(wall - window + 1 / run.rate, 2),
        "passed": not failed and "p95" in overall and overall["p95"] <= p95_goal_ms,
    }
