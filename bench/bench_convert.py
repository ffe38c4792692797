"""Benchmark of the LibreOffice converter: the warm pool against a direct
unoserver call and a cold `soffice --convert-to pdf`, throughput with
concurrent clients, and the pool's memory over many conversions.

Run: `.venv/bin/python bench/bench_convert.py [--quick]` (prints a table and
the same figures as JSON on the last line). `make bench` runs it after bench/run.py.

Cases (medians of RUNS timed runs after one warm-up, on a ~100 KB Word
document of text, a table and a picture, 17 pages once laid out):
- `pool`: `OfficePool.convert` on a started pool of one instance;
- `unoserver`: unoserver's own server and client (`unoserver` started by
  hand with the system Python, TCP on 127.0.0.1), no pool; with its
  defaults (update_index: the document is refreshed and laid out again)
  and with update_index off (what the pool's server does);
- `cold`: `soffice --headless --convert-to pdf`, a new process each time,
  its profile already created (the usual command-line case);
- `cold_new_profile`: the same with a new profile each time;
- `throughput`: CLIENTS threads converting CONVERSIONS documents through a
  pool of POOL_SIZE instances: conversions per minute;
- `memory`: the pool's resident memory (whole process trees) every 20 of
  MEMORY_RUNS conversions, instances recycled every RECYCLE conversions,
  and the same without recycling.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import docx  # noqa: E402
from PIL import Image  # noqa: E402

from bench.measure import concurrently  # noqa: E402
from engines.convert.office import OfficePool, PoolSettings  # noqa: E402
from engines.convert.office.instance import default_soffice, unoserver_lib  # noqa: E402

QUICK = "--quick" in sys.argv
RUNS = 5 if QUICK else 7
CLIENTS = 10
POOL_SIZE = 2
CONVERSIONS = 40 if QUICK else 100
MEMORY_RUNS = 60 if QUICK else 500
RECYCLE = 50
MIB = 1024 * 1024


def make_document(path: Path) -> Path:
    """A Word document of about 100 KB: headings, 60 paragraphs, a table
    and a 160 x 160 noisy picture (which keeps the file from compressing)."""
    document = docx.Document()
    words = (
        "harbour lantern meadow orchard quarry saddle thistle velvet walnut zephyr "
        "bramble cinder dapple ember fennel gossamer hazel juniper kestrel lichen"
    ).split()
    document.add_heading("Quarterly report", 0)
    for n in range(60):
        if n % 15 == 0:
            document.add_heading(f"Section {n // 15 + 1}", 1)
        document.add_paragraph(
            " ".join(words[(n * 7 + k) % len(words)] for k in range(90))
        )
    table = document.add_table(rows=12, cols=4)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"{words[(r + c) % len(words)]} {r * c}"
    picture = io.BytesIO()
    Image.effect_noise((160, 160), 40).convert("RGB").save(picture, "PNG")
    picture.seek(0)
    document.add_picture(picture)
    document.save(str(path))
    return path


def timed(call: Any, runs: int = RUNS) -> float:
    call()  # warm-up
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_pool(source: Path, work: Path) -> float:
    with OfficePool(PoolSettings(size=1, workdir=str(work / "pool"))) as pool:
        pool.start()
        return timed(lambda: pool.convert(str(source), str(work / "pool.pdf")))


@contextmanager
def unoserver_client(work: Path) -> Iterator[Any]:
    """unoserver's own server (7 s of fixed sleeps to start), started by hand
    with the system Python, TCP on 127.0.0.1, no pool; its client, once it
    answers. The server's process group is killed after."""
    lib = unoserver_lib(str(work))
    env = dict(os.environ, PYTHONPATH=lib)
    port, uno_port = "23003", "23002"
    server = subprocess.Popen(
        [
            "/usr/bin/python3",
            "-c",
            "import sys; sys.argv[0] = 'unoserver'; "
            "from importlib import metadata; metadata.version = lambda name: '3'; "
            "from unoserver.server import main; sys.exit(main())",
            "--port",
            port,
            "--uno-port",
            uno_port,
            "--user-installation",
            str(work / "unoserver-profile"),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        from unoserver.client import UnoClient

        client = UnoClient(port=port, host_location="local")
        deadline = time.monotonic() + 60
        probe = make_document(work / "unoserver-probe.docx")
        while True:
            try:
                client.convert(inpath=str(probe), outpath=str(work / "warmup.pdf"))
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield client
    finally:
        os.killpg(server.pid, 9)
        server.wait()


def bench_unoserver(source: Path, work: Path) -> tuple[float, float]:
    """A direct unoserver call with its default (indexes updated: the document
    is laid out again) and with update_index=False, as the pool converts."""
    with unoserver_client(work) as client:
        out = str(work / "unoserver.pdf")
        default = timed(lambda: client.convert(inpath=str(source), outpath=out))
        same = timed(
            lambda: client.convert(inpath=str(source), outpath=out, update_index=False)
        )
        return default, same


def cold_converter(work: Path, *, new_profile: bool) -> Callable[[Path], None]:
    """`soffice --headless --convert-to pdf` of a file, a new process each call
    (its profile kept between calls unless `new_profile`)."""
    soffice = str(Path(default_soffice()).with_name("soffice"))
    runs = [0]

    def convert(source: Path) -> None:
        target = work / "cold-profile"
        if new_profile:
            runs[0] += 1
            target = work / f"cold-profile-{runs[0]}"
        subprocess.run(
            [
                soffice,
                "--headless",
                f"-env:UserInstallation=file://{target}",
                "--convert-to",
                "pdf",
                "--outdir",
                str(work / "cold"),
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )

    return convert


def bench_cold(source: Path, work: Path, *, new_profile: bool) -> float:
    convert = cold_converter(work, new_profile=new_profile)
    return timed(lambda: convert(source))


def bench_throughput(source: Path, work: Path) -> dict[str, float]:
    with OfficePool(
        PoolSettings(size=POOL_SIZE, workdir=str(work / "throughput"))
    ) as pool:
        pool.start()
        remaining = list(range(CONVERSIONS))
        lock = threading.Lock()
        failures = []

        def client(number: int) -> None:
            while True:
                with lock:
                    if not remaining:
                        return
                    job = remaining.pop()
                try:
                    pool.convert(str(source), str(work / f"t-{number}-{job}.pdf"))
                except Exception as exc:  # counted, not fatal to the benchmark
                    failures.append(repr(exc))

        elapsed = concurrently(client, CLIENTS)
    return {
        "conversions": CONVERSIONS,
        "seconds": round(elapsed, 2),
        "per_minute": round(CONVERSIONS / elapsed * 60, 1),
        "failures": len(failures),
    }


def bench_memory(source: Path, work: Path, recycle: int) -> list[tuple[int, int]]:
    """(conversions done, pool RSS in MiB) every 20 conversions, instances
    recycled every `recycle` conversions."""
    samples = []
    settings = PoolSettings(size=1, recycle_after=recycle, workdir=str(work / "memory"))
    with OfficePool(settings) as pool:
        pool.start()
        samples.append((0, pool.stats().rss // MIB))
        for n in range(1, MEMORY_RUNS + 2):
            pool.convert(str(source), str(work / "m.pdf"))
            # Sampled one conversion after a multiple of 20: with RECYCLE 50,
            # never just after a recycling conversion (whose instance is being
            # replaced), and the conversion itself waited for the replacement.
            if n % 20 == 1 and n > 1:
                samples.append((n - 1, _settled_rss(pool) // MIB))
    return samples


def _settled_rss(pool: OfficePool) -> int:
    """The pool's RSS once no instance is restarting (a recycled instance is
    replaced in the background)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        stats = pool.stats()
        if all(instance.rss for instance in stats.instances):
            return stats.rss
        time.sleep(0.2)
    return pool.stats().rss


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-convert-"))
    try:
        source = make_document(work / "report.docx")
        size_kb = source.stat().st_size // 1024
        results: dict[str, Any] = {"document_kb": size_kb}
        results["pool_s"] = bench_pool(source, work)
        results["unoserver_s"], results["unoserver_no_index_s"] = bench_unoserver(
            source, work
        )
        results["cold_s"] = bench_cold(source, work, new_profile=False)
        results["cold_new_profile_s"] = bench_cold(source, work, new_profile=True)
        results["throughput"] = bench_throughput(source, work)
        results["memory_mib"] = bench_memory(source, work, RECYCLE)
        results["memory_unrecycled_mib"] = bench_memory(source, work, 1_000_000)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(results)


def report(results: dict[str, Any]) -> None:
    pool = results["pool_s"]
    print(f"document: {results['document_kb']} KB Word file; medians of {RUNS} runs")
    print(f"{'case':42} {'seconds':>8} {'vs pool':>8}")
    for key, label in (
        ("pool_s", "warm pool (OfficePool.convert)"),
        ("unoserver_no_index_s", "direct unoserver call, update_index off"),
        ("unoserver_s", "direct unoserver call, its defaults"),
        ("cold_s", "cold soffice --convert-to (profile kept)"),
        ("cold_new_profile_s", "cold soffice, new profile each time"),
    ):
        print(f"{label:42} {results[key]:8.3f} {results[key] / pool:7.1f}x")
    throughput = results["throughput"]
    print(
        f"throughput: {throughput['per_minute']} conversions/min "
        f"({CLIENTS} clients, pool of {POOL_SIZE}, {throughput['conversions']} "
        f"conversions in {throughput['seconds']} s, {throughput['failures']} failures)"
    )
    series = ", ".join(f"{n}: {mib}" for n, mib in results["memory_mib"])
    print(f"pool RSS in MiB after N conversions (recycled every {RECYCLE}): {series}")
    series = ", ".join(f"{n}: {mib}" for n, mib in results["memory_unrecycled_mib"])
    print(f"the same, never recycled: {series}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
