"""The service as it runs in production, started for a benchmark.

gunicorn (gthread workers, as `transformsvc/scripts/run.sh` starts it), a
`manage.py qcluster` with 2 workers and the OCR queue's qcluster with 1 (at a
lower priority), on PostgreSQL, with a fresh data directory.
Also: the memory of the web workers (read from /proc), and the database and
Redis the benchmark needs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.live import (  # the same processes as the tests and `make run`
    LiveService,
    ServiceDied,
    free_port,
    running,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/transformsvc_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


class BenchError(RuntimeError):
    """The benchmark cannot run (no database, the service does not start...)."""


# --- database ------------------------------------------------------------------


def database_url() -> str:
    """DATABASE_URL from the environment, else the benchmark's own database."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _psycopg_url(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql", path="/" + dbname))


def ensure_database(url: str) -> None:
    """Create the database of `url` on its server when it does not exist."""
    import psycopg
    from psycopg import sql

    if urlsplit(url).scheme not in ("postgres", "postgresql"):
        raise BenchError(f"the benchmark runs on PostgreSQL; DATABASE_URL is {url!r}")
    name = database_name(url)
    try:
        conn = psycopg.connect(
            _psycopg_url(url, "postgres"), autocommit=True, connect_timeout=5
        )
    except psycopg.OperationalError as exc:
        raise BenchError(f"PostgreSQL does not answer at {url}: {exc}") from exc
    with conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def manage(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(
            f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
        )


def prepare_database(url: str, data_dir: Path, *, flush: bool) -> None:
    """Create (if missing) and migrate the database; empty it when `flush`."""
    ensure_database(url)
    env = service_env(url, data_dir, None)
    manage(env, "migrate", "--noinput")
    if flush:
        manage(env, "flush", "--noinput")


# --- process memory ------------------------------------------------------------


def _status_kb(pid: int, key: str) -> int:
    """A `Vm...` line of /proc/<pid>/status in kB (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class PeakMemory:
    """Peak RSS (MB) of some processes over a stretch of time.

    The kernel's high-water mark (VmHWM) is reset at the start by writing 5 to
    /proc/<pid>/clear_refs; where that is not allowed, a thread samples VmRSS
    every 5 ms instead (which can miss a very short peak).
    """

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.reset_ok = all(self._reset(pid) for pid in pids)
        self.sampled_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def _reset(pid: int) -> bool:
        try:
            Path(f"/proc/{pid}/clear_refs").write_text("5")
            return True
        except OSError:
            return False

    def _sample(self) -> None:
        while not self._stop.is_set():
            for pid in self.pids:
                self.sampled_kb = max(self.sampled_kb, _status_kb(pid, "VmRSS"))
            self._stop.wait(0.005)

    def __enter__(self) -> PeakMemory:
        if not self.reset_ok:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def peak_mb(self) -> float:
        hwm = max(_status_kb(pid, "VmHWM") for pid in self.pids) if self.reset_ok else 0
        return max(hwm, self.sampled_kb) / 1024


class TreeGrowth:
    """How far the memory of a whole process tree rises above its level at the
    start of a stretch of time, MB: the sum of every process's peak RSS (VmHWM,
    reset at the start; the whole peak of a process born meanwhile) less the sum
    of their RSS at the start. Processes do not all peak at once, so this is an
    upper bound. Needs /proc/<pid>/clear_refs (a process of the same user);
    `supported` says whether it was allowed."""

    def __init__(self, list_pids: Callable[[], list[int]]) -> None:
        self.list_pids = list_pids
        self.pids = list_pids()
        self.idle_kb = sum(_status_kb(pid, "VmRSS") for pid in self.pids)
        self.supported = all(PeakMemory._reset(pid) for pid in self.pids)
        self.peaks_kb: dict[int, int] = {}

    def __enter__(self) -> TreeGrowth:
        return self

    def __exit__(self, *exc: object) -> None:
        pids = set(self.pids) | set(self.list_pids())
        self.peaks_kb = {pid: _status_kb(pid, "VmHWM") for pid in pids}

    def peak_mb(self, pids: list[int]) -> float:
        """The highest peak RSS among `pids` over the stretch, MB."""
        return max(self.peaks_kb.get(pid, 0) for pid in pids) / 1024

    @property
    def idle_mb(self) -> float:
        return self.idle_kb / 1024

    @property
    def growth_mb(self) -> float:
        return max(0, sum(self.peaks_kb.values()) - self.idle_kb) / 1024


# --- the service ---------------------------------------------------------------


def service_env(db_url: str, data_dir: Path, redis_url: str | None) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "transformsvc.settings",
        "DATABASE_URL": db_url,
        "TRANSFORMSVC_DATA_DIR": str(data_dir),
        # Beside the run's data, removed with it (the default, a folder in
        # /dev/shm, would outlive every run).
        "TRANSFORMSVC_METRICS_DIR": str(data_dir / "metrics"),
        "TRANSFORMSVC_WORKERS": "2",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    env.pop("TRANSFORMSVC_Q_SYNC", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@dataclass
class Service:
    """The running service and the broker its workers use ("database" or "redis")."""

    live: LiveService
    broker: str

    @property
    def base(self) -> str:
        return self.live.base

    def peak_memory(self) -> PeakMemory:
        """`with service.peak_memory() as peak: ...; peak.peak_mb` over the web workers."""
        return PeakMemory(self.live.web_workers())

    def tree_growth(self) -> TreeGrowth:
        """`with service.tree_growth() as grown: ...; grown.growth_mb` over every
        process of the service (gunicorn, the qcluster, LibreOffice...)."""
        from engines.convert.office.procs import descendants

        def pids() -> list[int]:
            roots = [proc.pid for proc in self.live.processes.values()]
            return [pid for root in roots for pid in (root, *descendants(root))]

        return TreeGrowth(pids)

    def rss_mb(self) -> float:
        """The largest current RSS of a web worker, MB."""
        return max(_status_kb(pid, "VmRSS") for pid in self.live.web_workers()) / 1024

    def check_alive(self) -> None:
        try:
            self.live.check_alive()
        except ServiceDied as exc:
            raise BenchError(str(exc)) from exc


@contextmanager
def running_service(
    *,
    db_url: str,
    data_dir: Path,
    logs: Path,
    redis_url: str | None = None,
    web_workers: int = 2,
    threads: int = 40,
) -> Iterator[Service]:
    """gunicorn + qcluster (2 workers) + the OCR queue's qcluster (1) on `db_url`,
    answering /health; stopped after."""
    env = {
        **service_env(db_url, data_dir, redis_url),
        "PORT": str(free_port()),
        "WEB_WORKERS": str(web_workers),
        "WEB_THREADS": str(threads),
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    broker = "redis" if redis_url else "database"
    access_log = ("--access-logfile", str(logs / f"access-{broker}.log"))
    with _stopped_by_sigterm():
        try:
            with running(
                env, logs, web_workers=web_workers, web_args=access_log
            ) as live:
                yield Service(live, broker)
        except ServiceDied as exc:
            raise BenchError(str(exc)) from exc


@contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """A benchmark stopped with SIGTERM (`kill`, `timeout`) stops its service
    too: the signal becomes SystemExit, so the service's processes are stopped
    on the way out instead of left running, holding their database and port."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
