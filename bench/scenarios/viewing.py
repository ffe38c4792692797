"""10. The original rendition server's viewing workload, at fixed arrival rates.

Each simulated user uploads a document (POST /documents, raw bytes), reads its
layout and bookmarks, then for every page a thumbnail (IM_100_0), a page image
(IM_800_0) and the page's text/position, and deletes the document. The original
publishes about 32,000 documents/hour on 3 machines of 8 vCPUs (8.9 docs/s, 278
requests/s, P50 19 ms, P95 150 ms, no errors): 0.37 documents/s per vCPU. The
goal is 3 times that per vCPU with request P95 <= 150 ms and no error.

Open loop (bench/openloop.py): users arrive evenly spaced at a fixed rate
whatever earlier ones are doing, so latency is measured at that rate. Users take
the documents in turn, each uploading bytes of its own (a PDF comment, a zip
comment, bytes after an image's end): page images are cached by content hash,
and the same bytes every time would time the cache (`--same-bytes` does).

The documents, like the original's test set: a ~100 KB and a ~1 MB PDF of 14
pages each (standard_fonts.pdf and tracemonkey.pdf from the shared corpus;
generated stand-ins without it), a ~100 KB Word file (17 pages as LibreOffice
lays it out, on a worker; its layout waits for it), a 3-page scanned letter as
TIFF and a photo as JPEG (recognised by Tesseract on a worker unless `--ocr
never`; their text/position waits for it).

Per rate: documents/h, requests/s, P50/P95/P99 of every kind of request, errors
(non-2xx, wrong content, time-outs, users still running after the drain), CPU ms
per request of the service's process tree (gunicorn, qcluster and their
children, from /proc), of this client, and of the whole machine. The ceiling is
the highest rate passing (P95 <= 150 ms, no error) with every lower rate passing,
refined by bisection (the median of `--sweeps` sweeps; after the first, a sweep
stops at its first failing rate). `make bench` runs it as scenario 10 (one
sweep, then runs at the goal rate up to `--runs`); on its own:

    .venv/bin/python -m bench.scenarios.viewing [--rates 1,2,2.22,3,4]
        [--duration 30] [--runs 5] [--sweeps 1] [--ocr never] [--same-bytes]
        [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bench.context import Context, log
from bench.measure import Goal, Row, median
from bench.openloop import Doc, machine_busy, offer, summarize, vcpus
from tests.corpus import CORPUS

NUMBER = "10"
ORIGINAL_PER_VCPU = 0.37  # 8.9 documents/s on 3 machines of 8 vCPUs
TIMES_ORIGINAL = 3
P95_GOAL_MS = 150.0


def goal_rate() -> float:
    """Documents/s that are 3 times the original's per vCPU on this machine."""
    return round(TIMES_ORIGINAL * ORIGINAL_PER_VCPU * vcpus(), 2)


@dataclass(frozen=True)
class Plan:
    rates: tuple[float, ...]
    duration: float = 30.0  # seconds of arrivals per run
    runs: int = 5  # runs at the goal rate (the sweep's one included)
    refine: int = 2  # bisections between the ceiling and the first failing rate
    extend: int = 2  # rates x1.5 tried beyond the list while every rate passes
    ocr: str | None = None  # the upload's ?ocr=; None sends none (the default)
    same_bytes: bool = False
    drain: float = 60.0  # seconds users may run after the last arrival
    sweeps: int = 1  # the ceiling is the median of theirs
    settle: float = 60.0  # longest wait for a quiet machine before each run


def full_plan(runs: int) -> Plan:
    return Plan(rates=tuple(sorted({1.0, 2.0, goal_rate(), 3.0, 4.0})), runs=runs)


# A smoke run judges no number: on a machine busy with other work it must not wait
# a minute for quiet.
SMOKE_PLAN = Plan(
    rates=(2.0,), duration=3.0, runs=1, refine=0, extend=0, drain=30, settle=3.0
)


# --- documents -----------------------------------------------------------------


def documents(root: Path, *, smoke: bool) -> list[Doc]:
    """The test set, made under `root` on first use (smoke: a PDF and a JPEG)."""
    from bench.bench_assemble import make_document

    def pdf(corpus_name: str, label: str) -> Callable[[Path], object]:
        if (CORPUS / corpus_name).is_file():
            return lambda p: p.write_bytes((CORPUS / corpus_name).read_bytes())
        return lambda p: make_document(str(p), label, 14)

    made: dict[str, Callable[[Path], object]] = {
        "pdf-100k.pdf": pdf("standard_fonts.pdf", "S"),
        "pdf-1m.pdf": pdf("tracemonkey.pdf", "T"),
        "word-100k.docx": _docx,
        "scan-3p.tif": _scan,
        "photo.jpg": lambda p: _photo(p, (1600, 1200)),
    }
    if smoke:
        made = {
            "small.pdf": lambda p: make_document(str(p), "V", 3),
            "photo-small.jpg": lambda p: _photo(p, (640, 480)),
        }
    root.mkdir(parents=True, exist_ok=True)
    docs = []
    for name, make in made.items():
        path = root / name
        if not path.exists():
            make(path.with_name(name + ".part"))
            os.replace(path.with_name(name + ".part"), path)
        docs.append(Doc(name, path.read_bytes()))
    return docs


def _docx(dest: Path) -> None:
    from bench.bench_convert import make_document  # python-docx, ~100 KB, 17 pages

    made = make_document(dest.with_suffix(".docx"))
    os.replace(made, dest)


def _scan(dest: Path, pages: int = 3) -> None:
    """A letter scanned at 200 dpi, 1 bit, CCITT G4, slightly skewed."""
    words = (
        "account balance invoice payment customer service delivery order "
        "contract renewal period notice reference statement quarterly"
    ).split()
    body, title = ImageFont.load_default(30), ImageFont.load_default(48)
    scans = []
    for number in range(1, pages + 1):
        page = Image.new("L", (1654, 2339), 255)
        draw = ImageDraw.Draw(page)
        draw.text((150, 150), f"Letter, page {number}", font=title, fill=0)
        for n in range(42):
            line = " ".join(words[(n * 5 + k + number) % len(words)] for k in range(9))
            draw.text((150, 280 + n * 46), line.capitalize() + ".", font=body, fill=0)
        skewed = page.rotate(0.6, resample=Image.Resampling.BICUBIC, fillcolor=255)
        scans.append(skewed.convert("1"))
    scans[0].save(
        dest, "TIFF", compression="group4", dpi=(200, 200), save_all=True,
        append_images=scans[1:],
    )  # fmt: skip


def _photo(dest: Path, size: tuple[int, int]) -> None:
    """A photo-like picture: gradients, shapes and sensor noise, no text."""
    rng = np.random.default_rng(7)
    width, height = size
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    rgb = np.stack([x / width, y / height, (x + y) / (width + height)], axis=-1)
    rgb = rgb * 200 + 30 + rng.normal(0, 8, rgb.shape)
    image = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    for _ in range(25):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        r = int(rng.integers(20, width // 6))
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=colour)
    image.save(dest, "JPEG", quality=85, dpi=(72, 72))


# --- the sweep, the goal rate, the ceiling -----------------------------------------


def measure(
    base: str,
    roots: dict[str, int],
    docs: list[Doc],
    plan: Plan,
    say: Callable[[str], None] = log,
) -> dict[str, Any]:
    """Warm-up, the sweeps (each with its ceiling), more runs at the goal rate."""
    goal = goal_rate()
    # Untimed: imports, the LibreOffice pool, Tesseract's models.
    offer(base, docs, 1.0, len(docs), roots, ocr=plan.ocr, drain=plan.drain)

    def at(rate: float) -> dict[str, Any]:
        settle(plan.settle)
        run = offer(
            base, docs, rate, plan.duration, roots,
            ocr=plan.ocr, same_bytes=plan.same_bytes, drain=plan.drain,
        )  # fmt: skip
        summary = summarize(run, P95_GOAL_MS)
        say(f"viewing at {rate:g} docs/s: " + line(summary))
        return summary

    sweeps = [sweep(at, plan, every_rate=n == 0) for n in range(plan.sweeps)]
    ceilings = [ceiling for _, ceiling in sweeps]
    runs = [s for done, _ in sweeps for s in done]
    rate = goal if goal in plan.rates else plan.rates[0]
    at_goal = [s for s in runs if s["rate"] == rate]
    at_goal += [at(rate) for _ in range(plan.runs - len(at_goal))]
    ceiling = median(ceilings)
    return {
        "goal_rate": rate,
        "vcpus": vcpus(),
        "plan": asdict(plan),
        "documents": {d.name: len(d.data) for d in docs},
        "sweep": sorted(runs, key=lambda s: float(s["rate"])),
        "at_goal": at_goal,
        "ceilings": ceilings,
        "ceiling": ceiling,
        "per_vcpu": round(ceiling / vcpus(), 3),
        "ratio": round(ceiling / vcpus() / ORIGINAL_PER_VCPU, 2),
    }


def sweep(
    at: Callable[[float], dict[str, Any]], plan: Plan, *, every_rate: bool
) -> tuple[list[dict[str, Any]], float]:
    """The plan's rates (up to the first failing one unless `every_rate`), more
    while all pass, bisections between the highest passing rate (every lower one
    passing too) and the first failing one: the runs and that ceiling."""
    done: list[dict[str, Any]] = []
    for rate in plan.rates:
        done.append(at(rate))
        if not (every_rate or done[-1]["passed"]):
            break
    passing = [s["passed"] for s in done] + [False]
    ceiling = done[passing.index(False) - 1]["rate"] if passing[0] else 0.0
    failed = next((s["rate"] for s in done if not s["passed"]), None)
    for _ in range(plan.extend if failed is None else 0):
        done.append(at(round(done[-1]["rate"] * 1.5, 2)))
        if not done[-1]["passed"]:
            failed = done[-1]["rate"]
            break
        ceiling = done[-1]["rate"]
    for _ in range(plan.refine if failed is not None else 0):
        assert failed is not None
        done.append(at(round((ceiling + failed) / 2, 2)))
        if done[-1]["passed"]:
            ceiling = done[-1]["rate"]
        else:
            failed = done[-1]["rate"]
    return done, ceiling


def settle(limit: float = 60.0) -> None:
    """Wait (up to `limit` s) for the machine to be quiet: the last run's leftovers."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = machine_busy()
        time.sleep(1.0)
        if machine_busy() - before < 0.3 * vcpus():
            return


def line(s: dict[str, Any]) -> str:
    cpu = s["cpu_ms_per_request"]
    return (
        f"{s['docs_per_s']:.2f} docs/s ({s['docs_per_h']}/h), "
        f"{s['requests_per_s']} req/s, P50/P95/P99 {s['p50']}/{s['p95']}/{s['p99']} ms, "
        f"{s['errors']} errors, CPU/request service {cpu['service']} ms "
        f"(web {cpu.get('web')}, worker {cpu.get('worker')}), "
        f"client {cpu['client']} ms, machine {cpu['machine']} ms "
        f"({s['machine_busy_pct']} % busy), tail {s['tail_s']} s"
    )


def kinds_table(s: dict[str, Any]) -> str:
    out = [f"{'kind':<14}{'n':>6}{'P50':>9}{'P95':>9}{'P99':>9}  (ms)"]
    for kind, k in s["kinds"].items():
        cells = [f"{k.get(p, '-'):>9}" for p in ("p50", "p95", "p99")]
        out.append(f"{kind:<14}{k['n']:>6}" + "".join(cells))
    return "\n".join(out)


# --- make bench ----------------------------------------------------------------


def run(ctx: Context) -> list[Row]:
    plan = SMOKE_PLAN if ctx.smoke else full_plan(ctx.runs)
    docs = documents(ctx.inputs.root / "viewing", smoke=ctx.smoke)
    roots = {name: p.pid for name, p in ctx.service.live.processes.items()}
    report = measure(ctx.service.base, roots, docs, plan, ctx.log)
    for summary in report["sweep"]:
        ctx.log(f"viewing at {summary['rate']:g} docs/s\n{kinds_table(summary)}")
    return rows(report)


def rows(report: dict[str, Any]) -> list[Row]:
    runs = report["at_goal"]
    rate, n = report["goal_rate"], len(runs)
    where = f"viewing workload at {rate:g} docs/s offered"

    def med(key: str) -> float:
        return median([float(s[key]) for s in runs])

    notes = {"runs": runs, "sweep": report["sweep"], "documents": report["documents"]}
    cpu = median([s["cpu_ms_per_request"]["service"] for s in runs])
    return [
        Row(NUMBER, f"{where}: documents/s served", "docs/s", med("docs_per_s"), None,
            None, n, notes=notes),
        Row(NUMBER, f"{where}: request P95", "ms", med("p95"), None,
            Goal("service", "<=", P95_GOAL_MS), n,
            notes={"p50": med("p50"), "p99": med("p99")}),
        Row(NUMBER, f"{where}: errors (all runs)", "errors",
            float(sum(s["errors"] for s in runs)), None, Goal("service", "<=", 0), n),
        Row(NUMBER, f"{where}: service CPU per request", "ms", cpu, None, None, n),
        Row(NUMBER, "viewing workload ceiling (P95 <= 150 ms, no error)", "docs/s",
            report["ceiling"], None, Goal("service", ">=", report["goal_rate"]),
            len(report["ceilings"]), notes={"ceilings": report["ceilings"]}),
        Row(NUMBER, f"viewing ceiling per vCPU ({report['vcpus']}) vs the original's",
            "docs/s/vCPU", report["per_vcpu"], ORIGINAL_PER_VCPU,
            Goal("ratio", ">=", TIMES_ORIGINAL), len(report["ceilings"]),
            baseline_label="the original: 8.9 docs/s on 24 vCPUs"),
    ]  # fmt: skip


# --- on its own --------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    from bench import service as svc

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="", help="comma-separated docs/s")
    parser.add_argument("--duration", type=float, help="seconds per run (30)")
    parser.add_argument("--runs", type=int, help="runs at the goal rate (5)")
    parser.add_argument("--refine", type=int, help="bisections (2)")
    parser.add_argument("--extend", type=int, help="rates x1.5 beyond the list (2)")
    parser.add_argument("--sweeps", type=int, help="sweeps, median ceiling (1)")
    parser.add_argument("--ocr", choices=("auto", "always", "never"))
    parser.add_argument("--same-bytes", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--work", type=Path, default=Path("var/bench-viewing"))
    parser.add_argument("--json", type=Path, default=Path("var/bench-viewing.json"))
    args = parser.parse_args(argv)
    plan = SMOKE_PLAN if args.smoke else full_plan(args.runs or 5)
    given = {
        "rates": tuple(float(r) for r in args.rates.split(",") if r.strip()),
        **{
            k: getattr(args, k)
            for k in ("duration", "runs", "refine", "extend", "sweeps")
        },
    }
    plan = replace(
        plan,
        **{k: v for k, v in given.items() if v not in (None, ())},
        ocr=args.ocr,
        same_bytes=args.same_bytes,
    )
    data, logs = args.work / "data", args.work / "logs"
    for fresh in (data, logs):
        shutil.rmtree(fresh, ignore_errors=True)
    kind = "smoke" if args.smoke else "full"
    docs = documents(args.work / "inputs" / kind, smoke=args.smoke)
    db_url = svc.database_url()
    svc.prepare_database(db_url, data, flush="bench" in svc.database_name(db_url))
    with svc.running_service(db_url=db_url, data_dir=data, logs=logs) as service:
        roots = {name: p.pid for name, p in service.live.processes.items()}
        report = measure(service.base, roots, docs, plan)
    for summary in report["sweep"]:
        print(f"\n{summary['rate']:g} docs/s offered: {line(summary)}")
        print(kinds_table(summary))
    for row in rows(report):
        print(
            f"{row.scenario}: {row.service:g} {row.unit}"
            + (f" (x{row.ratio:.2f})" if row.ratio else "")
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
